//! The fast paths: the same transitions as the states, taken in one go for
//! the common shapes (text runs, simple tags, comments); they change speed,
//! never tokens.

mod lanes;
pub(super) mod tag;
