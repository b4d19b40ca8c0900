//! Named character references (stub, generated table to come).
