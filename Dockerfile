# The image of docker-compose.yml's services (README.md, "Deploying").
#
# Two stages: the first builds spitlog's wheel; the second installs the pinned runtime,
# requirements-image.lock (requirements.lock's packages with the [s3] and [otel] extras,
# every one with its hashes), then the wheel alone. It runs as the user spitlog (uid and
# gid 10001), in a home and working directory it cannot write: nothing is written beside
# the code. Finished games go to SPITLOG_ARCHIVE_URL: an S3 bucket in docker-compose.yml,
# else the directory below, owned by spitlog, where a volume shared by the API and the
# workers belongs.

FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY domain ./domain
COPY service ./service
COPY workers ./workers
RUN pip wheel --no-deps --wheel-dir /wheels .

FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
COPY requirements-image.lock /tmp/requirements-image.lock
RUN pip install --require-hashes -r /tmp/requirements-image.lock \
    && rm /tmp/requirements-image.lock
COPY --from=build /wheels /tmp/wheels
RUN pip install --no-deps /tmp/wheels/spitlog-*.whl && rm -r /tmp/wheels
RUN groupadd --system --gid 10001 spitlog \
    && useradd --system --uid 10001 --gid spitlog --no-create-home \
       --home-dir /home/spitlog --shell /usr/sbin/nologin spitlog \
    && install -d -o root -g root -m 0755 /home/spitlog \
    && install -d -o spitlog -g spitlog -m 0750 /var/lib/spitlog/archive
ENV HOME=/home/spitlog SPITLOG_BIND=0.0.0.0:8000 SPITLOG_ARCHIVE_URL=/var/lib/spitlog/archive
WORKDIR /home/spitlog
USER 10001:10001
EXPOSE 8000
# GET /healthz on SPITLOG_BIND's port; docker-compose.yml's worker and scheduler services
# have their own (`spitlog health worker`, `spitlog health scheduler`)
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
    CMD ["spitlog", "health", "api"]
CMD ["spitlog", "serve"]
