# The image of docker-compose.yml's api and worker services.
FROM python:3.11-slim
WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
COPY pyproject.toml README.md ./
COPY domain ./domain
COPY service ./service
COPY workers ./workers
RUN pip install --no-cache-dir .
USER nobody
EXPOSE 8000
CMD ["spitlog", "serve"]
