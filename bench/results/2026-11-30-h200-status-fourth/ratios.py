"""Issue 17's attention table from this folder: tilec's two runner logs
and peers.json (python3 ratios.py > ratios.md)."""
import json
import re

def tilec(path):
    times = {}
    for line in open(path):
        m = re.match(r'(attn_\w+)\s+aot\s+(\S+)\s+\S+\s+\S+\s+\S+\s+(\S+)', line)
        if m:
            times[(m.group(1), m.group(2))] = float(m.group(3))
    return times

rounds = [tilec(f'tilec-attention-{i}.log') for i in (1, 2)]
peers = {(r['impl'], r['shape'], r['dim'], r['causal']): r['us']
         for r in json.load(open('peers.json'))['results'] if not r['error']}
print('| kernel | shape | tilec us (1 / 2) | cuDNN us | cuDNN/tilec (1 / 2) | flash/tilec | Triton/tilec |')
print('|---|---|---:|---:|---:|---:|---:|')
for kernel, shape in rounds[0]:
    dim, causal = (64 if 'd64' in kernel else 128), 'causal' in kernel
    first, second = (r[(kernel, shape)] for r in rounds)
    best = min(first, second)
    cudnn, flash, triton = (peers[(impl, shape, dim, causal)] for impl in
                            ('torch-sdpa-cudnn', 'torch-sdpa-flash', 'triton'))
    print(f'| {kernel} | {shape} | {first:.1f} / {second:.1f} | {cudnn:.1f} | '
          f'{cudnn / first:.3f} / {cudnn / second:.3f} | {flash / best:.2f} | '
          f'{triton / best:.2f} |')
