#!/usr/bin/env python3
"""tilec against torch SDPA's cuDNN and flash backends and Triton, from
peers.json and tilec's runner JSON of a folder (argument; default this
script's folder): peer time / tilec time. The runner JSON is
tilec-attention.json, or one file a round, tilec-attention-1.json,
tilec-attention-2.json, ...: then each round's time and cuDNN ratio, and
the others against the best round."""
import glob, json, os, sys
here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
peers = json.load(open(os.path.join(here, "peers.json")))["results"]
files = (glob.glob(os.path.join(here, "tilec-attention.json")) or
         sorted(glob.glob(os.path.join(here, "tilec-attention-[0-9]*.json"))))
rounds = [json.load(open(f))["results"] for f in files]
several = len(rounds) > 1
print("| kernel | shape | tilec us" + (" (1 / 2 ...)" if several else "") +
      " | cuDNN us | cuDNN/tilec | flash/tilec | Triton/tilec |")
print("|---|---|---:|---:|---:|---:|---:|")
for i, r in enumerate(rounds[0]):
    dim = 64 if "d64" in r["kernel"] else 128
    causal = "causal" in r["kernel"]
    def peer(impl):
        for p in peers:
            if (p["impl"] == impl and p["shape"] == r["shape"] and
                    p["dim"] == dim and p["causal"] == causal and not p["error"]):
                return p["us"]
    cudnn, flash, triton = (peer("torch-sdpa-cudnn"), peer("torch-sdpa-flash"),
                            peer("triton"))
    times = [rnd[i]["time_us"] for rnd in rounds]
    us = min(times)
    print(f"| {r['kernel']} | {r['shape']} | {' / '.join(f'{t:.1f}' for t in times)} | "
          f"{cudnn:.1f} | {' / '.join(f'{cudnn / t:.3f}' for t in times)} | "
          f"{flash / us:.3f} | {triton / us:.3f} |")
