//! Papers and their vectors as one Parquet file: what `export --format
//! parquet` writes and `ingest` reads back, and the hand-off to engines
//! that serve vectors from many machines (LanceDB, Qdrant; see
//! docs/scale.md). One row per paper:
//!
//! | column | type | |
//! |---|---|---|
//! | `id` | string | arXiv id without version (`2503.12191`, `hep-th/9901001`) |
//! | `version` | int32, null | newest version known |
//! | `title`, `abstract` | string | cleaned, one line each |
//! | `authors` | list<string> | one name each |
//! | `categories` | list<string> | primary first |
//! | `comments`, `journal_ref` | string, null | |
//! | `date` | string, null | `YYYY-MM-DD`, a day the calendar has: first listed (or first version, for snapshot papers) |
//! | `model` | string | the model id `stats` shows |
//! | `vector` | fixed_size_list<float32, dim> | unit length, as the library stores it |
//!
//! Both ways go a row group (`ROW_GROUP` rows) at a time, so 3 M papers
//! never sit in memory whole.
//!
//! A file read is someone else's: a row whose id is no arXiv id or whose
//! date is no calendar date fails the import, naming the row; one-line
//! fields lose control characters as every listing's do.

use crate::listing::contain::quietly;
use crate::listing::Batch;
use crate::listing::Given;
use crate::listing::ListingError;
use crate::paper::{ArxivId, Kind, Paper};
use anyhow::{Context, Result};
use arrow_array::builder::{FixedSizeListBuilder, Float32Builder, Int32Builder, ListBuilder, StringBuilder};
use arrow_array::{Array, ArrayRef, FixedSizeListArray, Float32Array, Int32Array, ListArray, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::ChunkReader;
use parquet::schema::types::ColumnPath;
use std::fs::File;
use std::path::Path;
use std::sync::Arc;

/// What a panic inside arrow-rs is called in the file's error.
const READER: &str = "Parquet reader";

/// The first (and last) four bytes of every Parquet file.
pub const MAGIC: &[u8] = b"PAR1";

/// Rows per row group (about 2 MB of vectors at 384 dimensions).
const ROW_GROUP: usize = 4096;

fn schema(dim: usize) -> Result<SchemaRef> {
    let item = |t: DataType| Arc::new(Field::new("item", t, true));
    let dim = i32::try_from(dim).context("vector dimension too large for Parquet")?;
    Ok(Arc::new(Schema::new(vec![
        Field::new("id", DataType::Utf8, false),
        Field::new("version", DataType::Int32, true),
        Field::new("title", DataType::Utf8, false),
        Field::new("authors", DataType::List(item(DataType::Utf8)), false),
        Field::new("abstract", DataType::Utf8, false),
        Field::new("categories", DataType::List(item(DataType::Utf8)), false),
        Field::new("comments", DataType::Utf8, true),
        Field::new("journal_ref", DataType::Utf8, true),
        Field::new("date", DataType::Utf8, true),
        Field::new("model", DataType::Utf8, false),
        Field::new("vector", DataType::FixedSizeList(item(DataType::Float32), dim), false),
    ])))
}

/// Writes papers with their vectors, a row group at a time.
pub struct Writer {
    out: ArrowWriter<File>,
    schema: SchemaRef,
    model: String,
    dim: usize,
    rows: Rows,
    path: String,
}

/// The columns of the rows not yet written.
struct Rows {
    id: StringBuilder,
    version: Int32Builder,
    title: StringBuilder,
    authors: ListBuilder<StringBuilder>,
    abstract_text: StringBuilder,
    categories: ListBuilder<StringBuilder>,
    comments: StringBuilder,
    journal_ref: StringBuilder,
    date: StringBuilder,
    model: StringBuilder,
    vector: FixedSizeListBuilder<Float32Builder>,
    len: usize,
}

impl Rows {
    fn new(dim: i32) -> Rows {
        Rows {
            id: StringBuilder::new(),
            version: Int32Builder::new(),
            title: StringBuilder::new(),
            authors: ListBuilder::new(StringBuilder::new()),
            abstract_text: StringBuilder::new(),
            categories: ListBuilder::new(StringBuilder::new()),
            comments: StringBuilder::new(),
            journal_ref: StringBuilder::new(),
            date: StringBuilder::new(),
            model: StringBuilder::new(),
            vector: FixedSizeListBuilder::new(Float32Builder::new(), dim),
            len: 0,
        }
    }

    fn finish(&mut self, schema: &SchemaRef) -> Result<RecordBatch> {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.id.finish()),
            Arc::new(self.version.finish()),
            Arc::new(self.title.finish()),
            Arc::new(self.authors.finish()),
            Arc::new(self.abstract_text.finish()),
            Arc::new(self.categories.finish()),
            Arc::new(self.comments.finish()),
            Arc::new(self.journal_ref.finish()),
            Arc::new(self.date.finish()),
            Arc::new(self.model.finish()),
            Arc::new(self.vector.finish()),
        ];
        self.len = 0;
        Ok(RecordBatch::try_new(schema.clone(), columns)?)
    }
}

impl Writer {
    pub fn create(path: &Path, model: &str, dim: usize) -> Result<Writer> {
        let schema = schema(dim)?;
        let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        // Vectors and ids do not repeat: dictionaries would only cost time.
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP))
            .set_dictionary_enabled(false)
            .set_column_dictionary_enabled(ColumnPath::from("model"), true)
            .build();
        let out = ArrowWriter::try_new(file, schema.clone(), Some(props))
            .with_context(|| format!("cannot write Parquet to {}", path.display()))?;
        Ok(Writer { out, schema, model: model.to_string(), dim, rows: Rows::new(dim as i32), path: path.display().to_string() })
    }

    /// Adds one paper; `date` is the day it was first listed.
    pub fn push(&mut self, p: &Paper, date: Option<&str>, vector: &[f32]) -> Result<()> {
        if vector.len() != self.dim {
            anyhow::bail!("paper {} has a vector of {} dimensions, not {}", p.id, vector.len(), self.dim);
        }
        let r = &mut self.rows;
        r.id.append_value(&p.id);
        r.version.append_option(p.version.and_then(|v| i32::try_from(v).ok()));
        r.title.append_value(&p.title);
        r.authors.append_value(p.authors.iter().map(Some));
        r.abstract_text.append_value(&p.abstract_text);
        r.categories.append_value(p.subjects.iter().map(Some));
        r.comments.append_option(p.comments.as_deref());
        r.journal_ref.append_option(p.journal_ref.as_deref());
        r.date.append_option(date);
        r.model.append_value(&self.model);
        r.vector.values().append_slice(vector);
        r.vector.append(true);
        r.len += 1;
        if r.len >= ROW_GROUP {
            self.write_rows()?;
        }
        Ok(())
    }

    fn write_rows(&mut self) -> Result<()> {
        let batch = self.rows.finish(&self.schema)?;
        self.out.write(&batch).with_context(|| format!("cannot write Parquet to {}", self.path))
    }

    pub fn finish(mut self) -> Result<()> {
        if self.rows.len > 0 {
            self.write_rows()?;
        }
        self.out.close().with_context(|| format!("cannot write Parquet to {}", self.path))?;
        Ok(())
    }
}

/// Reads an exported file back as batches of papers with their vectors.
pub struct Reader {
    batches: ParquetRecordBatchReader,
    source: String,
    /// Rows read so far.
    row: usize,
}

/// Papers of one batch of rows, and the vectors they came with.
#[derive(Debug, Default)]
pub struct Papers {
    pub papers: Vec<Paper>,
    pub given: Vec<Given>,
}

impl Reader {
    pub fn open(path: &Path) -> Result<Reader, ListingError> {
        let source = path.display().to_string();
        let file = File::open(path).map_err(|e| ListingError::new(&source, None, format!("cannot read: {e}")))?;
        Reader::new(file, &source)
    }

    /// Reads from anything Parquet's reader can (a file, bytes in memory).
    pub fn new<T: ChunkReader + 'static>(input: T, source: &str) -> Result<Reader, ListingError> {
        let bad = |e: String| ListingError::new(source, None, format!("not a readable Parquet file: {e}"));
        let len = input.len();
        let builder =
            quietly(READER, || ParquetRecordBatchReaderBuilder::try_new(input)).and_then(|r| r.map_err(|e| e.to_string())).map_err(bad)?;
        check_chunks(builder.metadata(), len).map_err(bad)?;
        let batches =
            quietly(READER, || builder.with_batch_size(ROW_GROUP).build()).and_then(|r| r.map_err(|e| e.to_string())).map_err(bad)?;
        Ok(Reader { batches, source: source.to_string(), row: 0 })
    }

    /// The next batch of rows as papers.
    pub fn next_rows(&mut self) -> Option<Result<Papers, ListingError>> {
        let batch = match quietly(READER, || self.batches.next()) {
            Ok(None) => return None,
            Ok(Some(Ok(b))) => b,
            Ok(Some(Err(e))) => return Some(Err(ListingError::new(&self.source, None, format!("cannot read Parquet: {e}")))),
            Err(e) => return Some(Err(ListingError::new(&self.source, None, format!("cannot read Parquet: {e}")))),
        };
        let converted = self.convert(&batch).map_err(|e| ListingError::new(&self.source, None, e));
        self.row += batch.num_rows();
        Some(converted)
    }

    fn convert(&self, batch: &RecordBatch) -> Result<Papers, String> {
        let strings = |name: &str| -> Result<&StringArray, String> {
            column(batch, name)?.as_any().downcast_ref::<StringArray>().ok_or_else(|| format!("column `{name}` is not a string column"))
        };
        let lists = |name: &str| -> Result<(&ListArray, &StringArray), String> {
            let list = column(batch, name)?
                .as_any()
                .downcast_ref::<ListArray>()
                .ok_or_else(|| format!("column `{name}` is not a list of strings"))?;
            let values =
                list.values().as_any().downcast_ref::<StringArray>().ok_or_else(|| format!("column `{name}` is not a list of strings"))?;
            Ok((list, values))
        };
        let (ids, titles, abstracts) = (strings("id")?, strings("title")?, strings("abstract")?);
        let (comments, journal_refs, dates, models) = (strings("comments")?, strings("journal_ref")?, strings("date")?, strings("model")?);
        let versions = column(batch, "version")?.as_any().downcast_ref::<Int32Array>().ok_or("column `version` is not int32")?;
        let (authors, author_names) = lists("authors")?;
        let (categories, category_codes) = lists("categories")?;
        let vectors = column(batch, "vector")?
            .as_any()
            .downcast_ref::<FixedSizeListArray>()
            .ok_or("column `vector` is not a fixed-size list of float32")?;
        let floats =
            vectors.values().as_any().downcast_ref::<Float32Array>().ok_or("column `vector` is not a fixed-size list of float32")?;
        let dim = vectors.value_length() as usize;
        let text = |a: &StringArray, i: usize| (!a.is_null(i)).then(|| a.value(i).to_string());
        let line = |a: &StringArray, i: usize| text(a, i).map(|t| crate::listing::text::inline(&t));
        let list = |l: &ListArray, v: &StringArray, i: usize| -> Vec<String> {
            let offsets = l.value_offsets();
            (offsets[i] as usize..offsets[i + 1] as usize)
                .filter(|&j| !v.is_null(j))
                .map(|j| crate::listing::text::inline(v.value(j)))
                .filter(|s| !s.is_empty())
                .collect()
        };
        let mut out = Papers::default();
        for i in 0..batch.num_rows() {
            let row = self.row + i + 1;
            let raw_id = text(ids, i).ok_or_else(|| format!("row {row}: no id"))?;
            let id = ArxivId::parse(&raw_id).ok_or_else(|| format!("row {row}: not an arXiv id: {raw_id}"))?;
            let mut p = Paper::new(
                ArxivId { id: id.id, version: (!versions.is_null(i)).then(|| versions.value(i)).and_then(|v| u32::try_from(v).ok()) },
                Kind::Snapshot,
                &self.source,
            );
            p.title = line(titles, i).unwrap_or_default();
            // Paragraphs stay; other control characters go.
            p.abstract_text = text(abstracts, i).unwrap_or_default().replace(|c: char| c.is_control() && c != '\n', "");
            p.authors = if authors.is_null(i) { Vec::new() } else { list(authors, author_names, i) };
            p.set_subjects(if categories.is_null(i) { Vec::new() } else { list(categories, category_codes, i) });
            p.comments = line(comments, i).filter(|s| !s.is_empty());
            p.journal_ref = line(journal_refs, i).filter(|s| !s.is_empty());
            p.listing_date = text(dates, i);
            if let Some(date) = &p.listing_date {
                if !is_calendar_date(date) {
                    return Err(format!("row {row}: date {} is not a calendar date (YYYY-MM-DD)", crate::listing::text::excerpt(date)));
                }
            }
            if !vectors.is_null(i) {
                let start = vectors.value_offset_at(i);
                out.given.push(Given {
                    paper: out.papers.len(),
                    line: row,
                    model: text(models, i),
                    text: None,
                    vector: floats.values()[start..start + dim].to_vec(),
                });
            }
            out.papers.push(p);
        }
        Ok(out)
    }
}

impl Iterator for Reader {
    type Item = Result<Batch, ListingError>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(self.next_rows()?.map(|r| Batch { rows: true, papers: r.papers, given: r.given, ..Batch::default() }))
    }
}

/// Every column chunk where the file has room for it. The Parquet reader
/// asserts (panics) on a negative offset or size in the footer; a range past
/// the end would be a read error later, this says which chunk.
fn check_chunks(meta: &parquet::file::metadata::ParquetMetaData, file_len: u64) -> Result<(), String> {
    for (g, group) in meta.row_groups().iter().enumerate() {
        for (c, chunk) in group.columns().iter().enumerate() {
            let start = chunk.dictionary_page_offset().unwrap_or(chunk.data_page_offset());
            let size = chunk.compressed_size();
            let end = u64::try_from(start).ok().zip(u64::try_from(size).ok()).and_then(|(s, n)| s.checked_add(n));
            if end.is_none_or(|end| end > file_len) {
                return Err(format!(
                    "column {} of row group {} lies outside the file ({start} + {size} bytes of {file_len})",
                    c + 1,
                    g + 1
                ));
            }
        }
    }
    Ok(())
}

/// `YYYY-MM-DD`, and a day the calendar has.
pub fn is_calendar_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| if i == 4 || i == 7 { *c == b'-' } else { c.is_ascii_digit() })
        && chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").is_ok()
}

fn column<'a>(batch: &'a RecordBatch, name: &str) -> Result<&'a ArrayRef, String> {
    batch.column_by_name(name).ok_or_else(|| format!("no column `{name}`: not a paperscout export"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_days_the_calendar_has() {
        assert!(is_calendar_date("2024-02-29"));
        for bad in ["2026-02-30", "2026-2-3", "<script>", "２０２６-01-01", "2026-01-01T00:00:00", "+2026-01-0"] {
            assert!(!is_calendar_date(bad), "{bad}");
        }
    }

    /// Found by fuzzing (`parquet`): a footer with a negative column offset
    /// made arrow-rs panic on the first batch.
    #[test]
    fn a_footer_the_reader_would_panic_on_is_one_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.parquet");
        std::fs::write(&path, include_bytes!("../../fuzz/seeds/parquet/negative-offset.parquet")).unwrap();
        let err = match Reader::open(&path) {
            Err(e) => e.to_string(),
            Ok(mut r) => r.next_rows().expect("a batch or an error").expect_err("not readable").to_string(),
        };
        assert!(err.contains("x.parquet: not a readable Parquet file: column") && err.contains("lies outside the file"), "{err}");
    }
}
