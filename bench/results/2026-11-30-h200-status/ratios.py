#!/usr/bin/env python3
"""tilec against torch SDPA's cuDNN and flash backends and Triton, from
tilec-attention.json and peers.json of a folder (argument; default this
script's folder): peer time / tilec time."""
import json, os, sys
here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
peers = json.load(open(os.path.join(here, "peers.json")))["results"]
tilec = json.load(open(os.path.join(here, "tilec-attention.json")))["results"]
print("| kernel | shape | tilec us | cuDNN us | cuDNN/tilec | flash/tilec | Triton/tilec |")
print("|---|---|---:|---:|---:|---:|---:|")
for r in tilec:
    dim = 64 if "d64" in r["kernel"] else 128
    causal = "causal" in r["kernel"]
    def peer(impl):
        for p in peers:
            if (p["impl"] == impl and p["shape"] == r["shape"] and
                    p["dim"] == dim and p["causal"] == causal and not p["error"]):
                return p["us"]
    cudnn, flash, triton = (peer("torch-sdpa-cudnn"), peer("torch-sdpa-flash"),
                            peer("triton"))
    us = r["time_us"]
    print(f"| {r['kernel']} | {r['shape']} | {us:.1f} | {cudnn:.1f} | "
          f"{cudnn / us:.3f} | {flash / us:.3f} | {triton / us:.3f} |")
