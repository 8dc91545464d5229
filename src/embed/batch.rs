//! Batching, independent of any model code: texts are sorted by token count
//! and cut into batches by a token budget, and results go back to input order.
//! (text-embeddings-inference does the same with `max-batch-tokens`.)

use std::ops::Range;

/// Token ids of several sequences, concatenated without padding. Sequence
/// `i` is `input_ids[cu_seqlens[i]..cu_seqlens[i + 1]]`; positions restart at
/// 0 in each. This is all a [`super::backend::Backend`] sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    pub input_ids: Vec<u32>,
    pub cu_seqlens: Vec<usize>,
    pub max_len: usize,
}

impl Batch {
    pub fn from_sequences<'a>(seqs: impl IntoIterator<Item = &'a [u32]>) -> Batch {
        let mut input_ids = Vec::new();
        let mut cu_seqlens = vec![0];
        let mut max_len = 0;
        for s in seqs {
            input_ids.extend_from_slice(s);
            cu_seqlens.push(input_ids.len());
            max_len = max_len.max(s.len());
        }
        Batch {
            input_ids,
            cu_seqlens,
            max_len,
        }
    }

    /// Number of sequences.
    pub fn len(&self) -> usize {
        self.cu_seqlens.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of real tokens (no padding).
    pub fn tokens(&self) -> usize {
        self.input_ids.len()
    }

    /// Rows of sequence `i` in the packed token layout.
    pub fn seq(&self, i: usize) -> Range<usize> {
        self.cu_seqlens[i]..self.cu_seqlens[i + 1]
    }
}

/// Groups the indices of `lengths` into batches: longest first, each batch
/// holding at most `budget` tokens counted as if padded to its longest
/// sequence (so a padded backend stays within the budget too). A sequence
/// longer than the budget gets a batch of its own.
pub fn plan(lengths: &[usize], budget: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..lengths.len()).collect();
    // Stable: equal lengths keep input order, so runs are reproducible.
    order.sort_by(|&a, &b| lengths[b].cmp(&lengths[a]));
    let mut batches: Vec<Vec<usize>> = Vec::new();
    let mut current: Vec<usize> = Vec::new();
    let mut longest = 0;
    for i in order {
        let len = lengths[i].max(1);
        let widest = longest.max(len);
        if !current.is_empty() && widest * (current.len() + 1) > budget {
            batches.push(std::mem::take(&mut current));
            longest = 0;
        }
        longest = longest.max(len);
        current.push(i);
    }
    if !current.is_empty() {
        batches.push(current);
    }
    batches
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_layout() {
        let a = [101u32, 7, 102];
        let b = [101u32, 102];
        let batch = Batch::from_sequences([&a[..], &b[..]]);
        assert_eq!(batch.len(), 2);
        assert_eq!(batch.tokens(), 5);
        assert_eq!(batch.max_len, 3);
        assert_eq!(batch.seq(1), 3..5);
        assert_eq!(&batch.input_ids[batch.seq(0)], &a);
    }

    #[test]
    fn plan_sorts_and_respects_budget() {
        let lengths = [5, 100, 7, 100, 60, 3];
        let batches = plan(&lengths, 200);
        // Every index exactly once.
        let mut all: Vec<usize> = batches.iter().flatten().copied().collect();
        all.sort();
        assert_eq!(all, (0..lengths.len()).collect::<Vec<_>>());
        // Longest first, stable among equals, padded size within budget.
        assert_eq!(batches[0], vec![1, 3]);
        for b in &batches {
            let widest = b.iter().map(|&i| lengths[i]).max().unwrap();
            assert!(widest * b.len() <= 200 || b.len() == 1);
        }
        assert_eq!(batches.concat(), vec![1, 3, 4, 2, 0, 5]);
    }

    #[test]
    fn plan_oversized_and_empty() {
        assert_eq!(plan(&[500, 10], 100), vec![vec![0], vec![1]]);
        assert!(plan(&[], 100).is_empty());
        assert_eq!(plan(&[1, 1, 1], 0), vec![vec![0], vec![1], vec![2]]);
    }
}
