//! Character references (stub).
