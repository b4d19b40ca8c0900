//! HTTP payloads as a browser receives them.
