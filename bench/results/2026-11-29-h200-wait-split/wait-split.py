# A measurement probe, not compiler code: puts the P V wait (wgmma.wait_group 0)
# of kernel attn_d128's key loops in a basic block of its own, after the
# softmax, to see whether ptxas still issues it before the softmax when it
# cannot schedule it into the softmax's block.
#   python3 wait-split.py in.ptx out.ptx MODE
# after-release: the wait (and its bar.warp.sync) moved behind the slot
#   release's branch, into the latch block. Racy (the slot is released while
#   P V may still read it): for timing only.
# diamond: a branch on the last row sum (taken only for the bit pattern
#   0xffffffff, which no arithmetic makes) around a volatile shared store,
#   just before the wait.
import re, sys
src, dst, mode = sys.argv[1], sys.argv[2], sys.argv[3]
lines = open(src).read().split('\n')
out, kernel, last_sum, n, i = [], None, None, 0, 0
pending = None  # after-release: the wait lines to put after the latch label
while i < len(lines):
    l = lines[i]
    m = re.match(r'^\.visible \.entry (\w+)\(', l)
    if m:
        kernel = m.group(1)
    s = re.match(r'^\s*add\.rn\.f32\s+(%r\d+),', l)
    if s:
        last_sum = s.group(1)
    if kernel == 'attn_d128' and l.strip() == 'wgmma.wait_group.sync.aligned 0;' \
            and re.match(r'^\s*// end inline asm', lines[i + 1]) \
            and re.match(r'^\s*bar\.warp\.sync\s+-1;', lines[i + 2]) \
            and re.match(r'^\s*@%p\d+ bra\s+(\$L__BB\d+_\d+);', lines[i + 3]):
        n += 1
        label = re.match(r'^\s*@%p\d+ bra\s+(\$L__BB\d+_\d+);', lines[i + 3]).group(1)
        if mode == 'after-release':
            # drop "// begin inline asm" already emitted
            assert out[-1].strip() == '// begin inline asm'
            out.pop()
            pending = (label, ['\twgmma.wait_group.sync.aligned 0;', '\tbar.warp.sync \t-1;'])
            i += 3
            continue
        if mode == 'diamond':
            assert out[-1].strip() == '// begin inline asm'
            begin = out.pop()
            out.append('\t{ .reg .pred %%pz; setp.eq.b32 %%pz, %s, -1; @%%pz bra $L__PROBE_%d; bra.uni $L__PROBE_JOIN_%d; $L__PROBE_%d: st.volatile.shared.u32 [__dynamic_shmem__0], 0; $L__PROBE_JOIN_%d: }' % (last_sum, n, n, n, n))
            out.append(begin)
    if pending and l.strip() == pending[0] + ':':
        out.append(l)
        out.extend(pending[1])
        pending = None
        i += 1
        continue
    out.append(l)
    i += 1
open(dst, 'w').write('\n'.join(out))
print(dst, mode, n, 'waits')
