import re, sys
src, dst, ahead = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = open(src).read().split('\n')
out = []
kernel = None
n = 0
pat = re.compile(r'^\s*cp\.async\.bulk\.tensor\.4d\.shared::cluster\.global\.tile\.mbarrier::complete_tx::bytes \[[^\]]+\], \[(%rd\d+), \{(%r\d+), (%r\d+), (%r\d+), (%r\d+)\}\], \[[^\]]+\];')
for l in lines:
    m = re.match(r'^\.visible \.entry (\w+)\(', l)
    if m:
        kernel = m.group(1)
    out.append(l)
    mm = pat.match(l)
    if mm and kernel in ('attn_d128__decode', 'attn_d128__decode_heads'):
        t, c0, c1, c2, c3 = mm.groups()
        out.append('\t{ .reg .b32 %%pf; add.s32 %%pf, %s, %d; cp.async.bulk.prefetch.tensor.4d.L2.global.tile [%s, {%s, %%pf, %s, %s}]; }' % (c1, 64 * ahead, t, c0, c2, c3))
        n += 1
open(dst, 'w').write('\n'.join(out))
print(dst, n, 'prefetches')
