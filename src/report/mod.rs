//! Presenting results: the stages before this never print.

pub mod digest;
pub mod json;
pub mod table;
