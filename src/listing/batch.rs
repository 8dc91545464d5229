//! What a streamed read hands on: some papers of one input and the
//! vectors that came with them, from JSON lines or a Parquet file alike.

use crate::paper::Paper;

/// Some papers of one input, in input order, with the vectors that came
/// with them.
#[derive(Debug, Default)]
pub struct Batch {
    pub papers: Vec<Paper>,
    pub given: Vec<Given>,
    pub warnings: Vec<String>,
    /// Where `Given::line` counts: rows of a Parquet file, else lines.
    pub rows: bool,
}

impl Batch {
    /// `FILE:LINE`, or `FILE: row N` for Parquet: where a vector came from.
    pub fn place(&self, given: &Given) -> String {
        let source = self.papers.get(given.paper).map_or("", |p| p.source.as_str());
        if self.rows {
            format!("{source}: row {}", given.line)
        } else {
            format!("{source}:{}", given.line)
        }
    }
}

/// A vector a line carries beside its paper, unchecked.
#[derive(Debug, Clone)]
pub struct Given {
    /// Index of its paper among those read with it.
    pub paper: usize,
    /// 1-based line (row, for Parquet) it was read from.
    pub line: usize,
    pub model: Option<String>,
    /// The text it was made from, when the line says.
    pub text: Option<String>,
    pub vector: Vec<f32>,
}
