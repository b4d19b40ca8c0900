//! html5lib-tests JSON (stub).
