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
        Batch { input_ids, cu_seqlens, max_len }
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

    /// Packed rows of sequences `seqs` (a contiguous range of them).
    pub fn rows(&self, seqs: Range<usize>) -> Range<usize> {
        self.cu_seqlens[seqs.start]..self.cu_seqlens[seqs.end]
    }

    /// The sequences `seqs` as a batch of their own.
    pub fn slice(&self, seqs: Range<usize>) -> Batch {
        let rows = self.rows(seqs.clone());
        Batch {
            input_ids: self.input_ids[rows.clone()].to_vec(),
            cu_seqlens: self.cu_seqlens[seqs.start..=seqs.end].iter().map(|c| c - rows.start).collect(),
            max_len: seqs.map(|i| self.seq(i).len()).max().unwrap_or(0),
        }
    }

    /// Cuts the sequences into at most `parts` contiguous, non-empty ranges
    /// of about equal total `cost(sequence length)`, so that each can run on
    /// a thread of its own and finish at about the same time.
    pub fn split(&self, parts: usize, cost: impl Fn(usize) -> f64) -> Vec<Range<usize>> {
        let n = self.len();
        let parts = parts.clamp(1, n.max(1));
        let costs: Vec<f64> = (0..n).map(|i| cost(self.seq(i).len())).collect();
        let total: f64 = costs.iter().sum();
        let mut ranges = Vec::with_capacity(parts);
        let (mut start, mut acc) = (0, 0.0);
        for (i, c) in costs.iter().enumerate() {
            let left_after = n - i - 1;
            let cuts_left = parts - ranges.len() - 1;
            acc += c;
            // Cut where the running cost passes the next share's midpoint,
            // or when the remaining sequences are just enough for the rest.
            let share = total * (ranges.len() + 1) as f64 / parts as f64;
            if cuts_left > 0 && (acc >= share - c / 2.0 || left_after == cuts_left) {
                ranges.push(start..i + 1);
                start = i + 1;
            }
        }
        if start < n || ranges.is_empty() {
            ranges.push(start..n);
        }
        ranges
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
    fn split_balances_cost_and_slices_keep_rows() {
        let seqs: Vec<Vec<u32>> = [9usize, 8, 8, 5, 3, 3, 2, 1].iter().map(|&n| (0..n as u32).collect()).collect();
        let batch = Batch::from_sequences(seqs.iter().map(Vec::as_slice));
        for parts in 1..=10 {
            let ranges = batch.split(parts, |len| len as f64);
            assert_eq!(ranges.len(), parts.min(batch.len()));
            assert_eq!(ranges[0].start, 0);
            assert_eq!(ranges.last().unwrap().end, batch.len());
            for w in ranges.windows(2) {
                assert_eq!(w[0].end, w[1].start);
            }
            assert!(ranges.iter().all(|r| !r.is_empty()));
        }
        // 39 tokens in two parts: 9+8 = 17 | 22 is the best contiguous cut.
        assert_eq!(batch.split(2, |len| len as f64), vec![0..2, 2..8]);
        let part = batch.slice(2..5);
        assert_eq!(part.len(), 3);
        assert_eq!(part.max_len, 8);
        assert_eq!(part.input_ids, batch.input_ids[batch.rows(2..5)]);
        assert_eq!(part.seq(1), 8..13);
        let empty = Batch::from_sequences(std::iter::empty::<&[u32]>());
        assert_eq!(empty.split(4, |len| len as f64), vec![0..0]);
    }

    #[test]
    fn plan_oversized_and_empty() {
        assert_eq!(plan(&[500, 10], 100), vec![vec![0], vec![1]]);
        assert!(plan(&[], 100).is_empty());
        assert_eq!(plan(&[1, 1, 1], 0), vec![vec![0], vec![1], vec![2]]);
    }
}
