//! What the library's unit tests share: papers, an embedder that fails
//! on cue, and a small embedded library.

use super::Library;
use crate::embed::Embedder;
use crate::paper::{ArxivId, Kind, Paper};
use anyhow::Result;

pub(super) fn paper(id: &str, kind: Kind, date: &str, abstract_text: &str) -> Paper {
    let mut p = Paper::new(ArxivId::parse(id).unwrap(), kind, "test");
    p.title = "A title".into();
    p.abstract_text = abstract_text.into();
    p.listing_date = Some(date.into());
    p.set_subjects(vec!["cs.DC".into()]);
    p
}

/// Embeds by a rule: texts containing "POISON" fail, "NAN" gives NaN.
pub(super) struct Fake {
    id: &'static str,
    pub(super) calls: std::cell::Cell<usize>,
}

impl Embedder for Fake {
    fn model_id(&self) -> &str {
        self.id
    }
    fn dim(&self) -> usize {
        2
    }
    fn embed(&self, texts: &[&str], _: &dyn Fn(usize)) -> Result<Vec<Vec<f32>>> {
        self.calls.set(self.calls.get() + texts.len());
        texts
            .iter()
            .map(|t| {
                if t.contains("POISON") {
                    anyhow::bail!("cannot embed this text")
                }
                Ok(if t.contains("NAN") { vec![f32::NAN, 0.0] } else { vec![1.0, 0.0] })
            })
            .collect()
    }
}

pub(super) fn fake(id: &'static str) -> Fake {
    Fake { id, calls: std::cell::Cell::new(0) }
}

/// A library of `n` papers listed on one day, embedded by `fake("m")`.
pub(super) fn embedded_library(n: usize) -> (tempfile::TempDir, Library) {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = Library::open_write(dir.path()).unwrap();
    let papers: Vec<Paper> = (1..=n).map(|i| paper(&format!("2603.{i:05}v1"), Kind::New, "2026-03-02", &format!("Text {i}."))).collect();
    lib.add_papers(&papers).unwrap();
    lib.embed_missing(&fake("m"), &|_, _| {}).unwrap();
    (dir, lib)
}
