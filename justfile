# Contributors' shortcuts; every recipe is a plain cargo command underneath.

# Run the service on the embedded default (SQLite under ./data, demo partner).
run:
    cargo xtask run

# All tests: domain, storage contract (SQLite + PostgreSQL when reachable), CLI.
test *ARGS:
    cargo xtask test {{ARGS}}

# What CI runs.
ci:
    bash .ci/run

fmt:
    cargo fmt --all

lint:
    cargo clippy --workspace --all-targets -- -D warnings

# The running service against its OpenAPI document with Schemathesis (creates a virtualenv).
api-check *ARGS:
    cargo build -p vp-api
    bash contract/partner-api/check.sh "${CARGO_TARGET_DIR:-target}/debug/vp-api" {{ARGS}}

# Load harness against a real service and a bare actix-web route (see crates/bench).
bench *ARGS:
    cargo build --release -p vp-api
    cargo run --release -p vp-bench -- {{ARGS}}
