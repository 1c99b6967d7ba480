# The image docker-compose.yml runs as the API, the worker and beat.
FROM python:3.11-slim
WORKDIR /srv/orrery
COPY pyproject.toml README.md app.py ./
COPY domain ./domain
COPY events ./events
COPY service ./service
COPY workers ./workers
COPY api ./api
COPY web ./web
RUN pip install --no-cache-dir . && useradd --system --home /srv/orrery orrery && chown orrery /srv/orrery
USER orrery
EXPOSE 8000
CMD ["gunicorn", "--bind", "0.0.0.0:8000", "--workers", "4", "--worker-class", "gevent", "--worker-connections", "2000", "--graceful-timeout", "10", "--limit-request-line", "16384", "--limit-request-field_size", "65536", "--config", "api/server_hooks.py", "app:create_app()"]
