#!/usr/bin/env python3
"""The reference on the GPU: the texts and the f16 model that
scripts/gpu-proof stages (target/gpu-proof), embedded with
sentence-transformers in fp16 on CUDA (or, where it is not installed, the
same model through transformers with mean pooling and L2 normalisation),
at several batch sizes, for the ratio beside `paperscout embed --device
cuda` in the same session (docs/benchmarks.md, "CUDA").

    python3 benches/gpu_reference.py [STAGE]
"""

import json
import lzma
import os
import resource
import shutil
import sys
import tempfile
import time

import torch
import transformers

stage = sys.argv[1] if len(sys.argv) > 1 else "target/gpu-proof"
print("torch", torch.__version__, "transformers", transformers.__version__, torch.cuda.get_device_name(0))
try:
    import sentence_transformers as st
    print("sentence-transformers", st.__version__)
except ImportError as e:
    print("no sentence-transformers:", e)
    st = None

model_dir = os.path.join(tempfile.mkdtemp(), "model")
shutil.copytree(os.path.join(stage, "model"), model_dir)
for root, _, files in os.walk(model_dir):
    for f in files:
        if f.endswith(".xz"):
            p = os.path.join(root, f)
            with open(p, "rb") as src, open(p[:-3], "wb") as dst:
                dst.write(lzma.decompress(src.read()))
            os.remove(p)
with open(os.path.join(stage, "texts.jsonl.xz"), "rb") as f:
    texts = [json.loads(line)["text"] for line in lzma.decompress(f.read()).decode().splitlines() if line.strip()]
print(len(texts), "texts")

if st:
    model = st.SentenceTransformer(model_dir, device="cuda")
    model.half()
    model.max_seq_length = 256

    def encode(bs):
        model.encode(texts, batch_size=bs, normalize_embeddings=True, convert_to_numpy=True)
else:
    tok = transformers.AutoTokenizer.from_pretrained(model_dir)
    net = transformers.AutoModel.from_pretrained(model_dir, torch_dtype=torch.float16).cuda().eval()
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))

    def encode(bs):
        with torch.inference_mode():
            for i in range(0, len(texts), bs):
                b = tok([texts[j] for j in order[i:i + bs]], padding=True, truncation=True, max_length=256,
                        return_tensors="pt").to("cuda")
                h = net(**b).last_hidden_state
                mask = b["attention_mask"].unsqueeze(-1).to(h.dtype)
                v = (h * mask).sum(1) / mask.sum(1)
                torch.nn.functional.normalize(v.float(), dim=1).cpu()

encode(64)
for bs in [32, 64, 128, 256, 512]:
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    torch.cuda.synchronize()
    t = time.perf_counter()
    encode(bs)
    torch.cuda.synchronize()
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    print(f"reference fp16, batch {bs}: {len(texts) / wall:,.0f} texts/s, {wall:.2f} s wall, {cpu:.1f} CPU s")
