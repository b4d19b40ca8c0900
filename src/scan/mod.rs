//! Landmark scanning (stub).
