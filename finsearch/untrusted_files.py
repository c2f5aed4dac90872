"""Reading a file someone else could have put there (a replay pack's recording, a summary on the
Evaluate page): only a regular file, only inside its folder, never more than a limit as read.

    read_bounded(path, limit, within=folder) → the file's bytes, or RefusedFile saying why not

A size taken from `stat` proves nothing: a FIFO, a device or a symlink to `/dev/zero` reads as
0 bytes and then blocks forever or never ends, and a file can grow between the look and the
read. So the path is resolved and held to its folder first; the file is then opened without
following a link (from the folder down, one directory at a time, where the system allows),
without blocking, and checked on the opened descriptor (`fstat`: a regular file, so nothing
swapped in between the look and the open is read); and it is read up to `limit + 1` bytes at
most, refused when there is more.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NON_BLOCK = getattr(os, "O_NONBLOCK", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CHUNK = 1 << 16
_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"),
          (stat.S_ISLNK, "a symbolic link"))


class RefusedFile(OSError):
    """A file that was not read, and why, in words a person reads (`str(err)`, `err.strerror`):
    not a regular file, a link leading out of its folder, or more than the limit. An OSError, so
    a caller that already passes over a file it cannot read passes over these too."""

    def __init__(self, why: str):
        super().__init__(why)
        self.strerror = why


def read_bounded(path: Path, limit: int, *, within: Path | None = None) -> bytes:
    """The bytes of `path`, a regular file of at most `limit` bytes, counted as read.

    With `within`, the path (followed through any links) must lead to a file inside that
    folder, and is opened from the folder down with no link followed, so that what is read is
    what was checked. RefusedFile for anything else; other OSErrors (no such file, no
    permission) as the system raised them."""
    try:
        real = Path(path).resolve(strict=True)
    except RuntimeError:                                 # a loop of links, before Python 3.13
        raise RefusedFile("a loop of symbolic links") from None
    root = Path(within).resolve() if within is not None else None
    if root is not None and (real == root or not real.is_relative_to(root)):
        raise RefusedFile("a link leading outside its folder")
    fd = _open_inside(root, real) if root is not None and os.open in os.supports_dir_fd else _open(real, None)
    try:
        _check_regular(os.fstat(fd))
        return _read_at_most(fd, limit)
    finally:
        os.close(fd)


def _open_inside(root: Path, real: Path) -> int:
    """`real` opened from `root` down, each folder and the file itself without following a link
    (a link swapped in since `resolve` is refused, not followed)."""
    *folders, name = real.relative_to(root).parts
    here = os.open(root, os.O_RDONLY | _DIRECTORY)
    try:
        for folder in folders:
            try:
                inner = os.open(folder, os.O_RDONLY | _DIRECTORY | _NO_FOLLOW, dir_fd=here)
            except OSError as exc:
                raise _refusal(exc) from None
            os.close(here)
            here = inner
        return _open(name, here)
    finally:
        os.close(here)


def _open(name: Path | str, folder: int | None) -> int:
    """One file, looked at before it is opened (a FIFO or a device is never opened), then opened
    without following a link and without blocking."""
    _check_regular(os.stat(name, dir_fd=folder, follow_symlinks=False))
    try:
        return os.open(name, os.O_RDONLY | _NO_FOLLOW | _NON_BLOCK, dir_fd=folder)
    except OSError as exc:
        raise _refusal(exc) from None


def _refusal(exc: OSError) -> OSError:
    """What O_NOFOLLOW's refusals mean: a link (ELOOP), or a link where a folder was (ENOTDIR)."""
    if exc.errno in (errno.ELOOP, errno.ENOTDIR, getattr(errno, "EMLINK", None)):
        return RefusedFile("a symbolic link")
    return exc


def _check_regular(status: os.stat_result) -> None:
    if stat.S_ISREG(status.st_mode):
        return
    what = next((name for test, name in _KINDS if test(status.st_mode)), "something other than a file")
    raise RefusedFile(f"{what}, not a regular file")


def _read_at_most(fd: int, limit: int) -> bytes:
    chunks, size = [], 0
    while size <= limit:
        chunk = os.read(fd, min(_CHUNK, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
    raise RefusedFile(f"larger than {limit:,} bytes")
