//! The library's API as a user meets it, and its ways of handing out
//! tokens held to one another: `next_token`, the callback
//! (`for_each_token`), the records, the attribute-skipping walk and the
//! plain state machine give the same tokens, spans and errors; the
//! resource limits; link extraction; main content scored on annotated
//! pages; the examples a user copies.

mod api;
mod attributes_off;
mod edges;
mod examples;
mod extract;
mod fast_paths;
mod for_each;
mod limits;
mod links_stream;
mod main_content;
mod main_content_eval;
mod records;
