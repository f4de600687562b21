# A measurement hack, not compiler code: rewrites what follows the P V
# waits (wgmma.wait_group 0) of kernel attn_d128 in tilec's PTX, to see
# what makes ptxas issue the wait before the softmax.
#   python3 wait-probe.py in.ptx out.ptx MODE[,MODE]
# nowarpsync: drops the bar.warp.sync right after each wait.
# latearrive: makes the slot release's address depend on the last f32 sum
#   before the wait (plus 8 only for the bit pattern 0xffffffff, which no
#   arithmetic makes), so that ptxas cannot issue the release before it.
import re, sys
src, dst, modes = sys.argv[1], sys.argv[2], sys.argv[3].split(',')
lines = open(src).read().split('\n')
out, kernel, last_sum, after_wait, n = [], None, None, False, 0
for i, l in enumerate(lines):
    m = re.match(r'^\.visible \.entry (\w+)\(', l)
    if m:
        kernel = m.group(1)
    s = re.match(r'^\s*add\.rn\.f32\s+(%r\d+),', l)
    if s:
        last_sum = s.group(1)
    if kernel != 'attn_d128':
        out.append(l)
        continue
    if l.strip() == 'wgmma.wait_group.sync.aligned 0;':
        after_wait, n = True, n + 1
        out.append(l)
        continue
    if after_wait and 'nowarpsync' in modes and re.match(r'^\s*bar\.warp\.sync\s+-1;', l):
        continue
    a = re.match(r'^\s*add\.s64\s+(%rd\d+), %rd\d+, \d+;', l)
    if after_wait and a and 'latearrive' in modes and i + 1 < len(lines) and \
            re.match(r'^\s*mbarrier\.arrive\.shared\.b64\s+%%rd\d+, \[%s\];' % a.group(1), lines[i + 1]):
        out.append(l)
        out.append('\t{ .reg .pred %%pz; .reg .b64 %%tz; setp.eq.b32 %%pz, %s, -1; selp.b64 %%tz, 8, 0, %%pz; add.s64 %s, %s, %%tz; }'
                   % (last_sum, a.group(1), a.group(1)))
        after_wait = False
        continue
    if re.match(r'^\s*mbarrier\.arrive', l):
        after_wait = False
    out.append(l)
open(dst, 'w').write('\n'.join(out))
print(dst, modes, n, 'waits')
