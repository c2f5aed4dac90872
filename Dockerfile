# FinSearch: one app replica per container. `compose.yaml` runs several behind a sticky proxy,
# sharing one Redis (FINSEARCH_REDIS_URL); alone, `docker run -p 8501:8501 finsearch` keeps its
# runs and cache as files in the container's volume-able home.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Debian's Chromium prints deep-research reports to PDF (through playwright); the CJK font
# draws Chinese text in those PDFs instead of boxes.
RUN apt-get update \
    && apt-get install -y --no-install-recommends chromium fonts-noto-cjk \
    && rm -rf /var/lib/apt/lists/*

# An unprivileged user owns the app's data and cache folders and nothing else.
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin finsearch

WORKDIR /app
# Dependencies first: this layer is rebuilt only when requirements.txt changes.
COPY requirements.txt ./
RUN pip install -r requirements.txt

COPY .streamlit ./.streamlit
COPY app.py ./
COPY finsearch ./finsearch
COPY pages ./pages
COPY ui ./ui

USER finsearch
ENV FINSEARCH_DATA_DIR=/home/finsearch/data \
    FINSEARCH_CACHE_DIR=/home/finsearch/cache
RUN mkdir -p /home/finsearch/data /home/finsearch/cache
VOLUME ["/home/finsearch/data"]

EXPOSE 8501
# Streamlit's own health endpoint; the slim image has no curl, so Python asks.
HEALTHCHECK --interval=30s --timeout=5s --start-period=40s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4)"]

CMD ["python", "-m", "streamlit", "run", "app.py", "--server.address", "0.0.0.0", "--server.port", "8501"]
