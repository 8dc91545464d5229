//! Presenting results: tables, JSON lines, Markdown and HTML, citations,
//! TeX as text, and the links a digest carries. The stages before this
//! never print; carrying a digest to a reader (chat, feed, mail) is
//! `delivery`'s.

pub mod cite;
pub mod digest;
pub mod json;
pub mod links;
pub mod math;
pub mod table;

pub use links::Links;
