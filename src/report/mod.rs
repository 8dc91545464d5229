//! Presenting results: the stages before this never print.

pub mod json;
pub mod table;
