"""Embeds the `text` field of a JSONL file with sentence-transformers (the
reference implementation) and prints one line of JSON with texts/s.

    python benches/reference_embed.py INPUT.jsonl MODEL_DIR [--threads N]
        [--batch-sizes 4,8,16,32,64] [--rounds 3] [--vectors OUT.jsonl]

Every batch size is timed `--rounds` times after a warm-up; the best round
of the best batch size is reported, the same rule compare_reference.sh
applies to paperscout. fp32 throughout, vectors normalised as in the
project's reference embeddings.
"""

import argparse
import json
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("model_dir")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--batch-sizes", default="4,8,16,32,64")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--vectors", help="write the vectors of the last round here")
    args = ap.parse_args()

    import torch
    from sentence_transformers import SentenceTransformer

    if args.threads > 0:
        torch.set_num_threads(args.threads)
    texts = []
    with open(args.input, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                texts.append(json.loads(line)["text"])
    model = SentenceTransformer(args.model_dir, device="cpu")
    model.max_seq_length = 256
    model.encode(texts[:16], batch_size=16, normalize_embeddings=True)

    results = {}
    vectors = None
    for bs in [int(b) for b in args.batch_sizes.split(",")]:
        best = None
        for _ in range(args.rounds):
            start = time.perf_counter()
            vectors = model.encode(texts, batch_size=bs, normalize_embeddings=True,
                                   convert_to_numpy=True)
            secs = time.perf_counter() - start
            best = secs if best is None else min(best, secs)
        results[bs] = len(texts) / best
        print(f"reference batch {bs}: {results[bs]:.1f} texts/s", file=sys.stderr)
    bs = max(results, key=results.get)
    if args.vectors:
        with open(args.vectors, "w", encoding="utf-8") as out:
            for t, v in zip(texts, vectors):
                out.write(json.dumps({"text": t, "embedding": [float(x) for x in v]}) + "\n")
    print(json.dumps({
        "texts": len(texts),
        "texts_per_s": round(results[bs], 2),
        "batch_size": bs,
        "by_batch_size": {str(b): round(r, 2) for b, r in results.items()},
        "threads": torch.get_num_threads(),
        "torch": torch.__version__,
        "sentence_transformers": __import__("sentence_transformers").__version__,
    }))


if __name__ == "__main__":
    main()
