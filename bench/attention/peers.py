"""The attention peers of tilec's attn_d64 / attn_d128 kernels, timed on the
GPU machine in bf16: O = softmax(scale Q K^T [+ causal mask]) V with
scale = 1/sqrt(D), layout [B, H, N, D] contiguous. The implementations:

  flash, cudnn, efficient  torch SDPA with that backend forced
                           (torch.nn.attention.sdpa_kernel); rows
                           "torch-sdpa-flash", "torch-sdpa-cudnn",
                           "torch-sdpa-efficient"
  triton                   the fused-attention forward kernel in this file
                           (autotuned, one program per BLOCK_M query rows of
                           one batch*head, online softmax in exp2); row
                           "triton"

  python3 bench/attention/peers.py [--preset prefill,gqa,decode]
                                   [--shapes "B,Hq,Hkv,Nq,Nkv,D,causal;..."]
                                   [--impls flash,cudnn,efficient,triton]
                                   [--json FILE] [--ref-limit 268435456]

Presets (--preset, comma-separated; default all three):
  prefill  D 64 and 128, causal 0 and 1, N in 512 .. 16384 (powers of two),
           batch 16384 // N, Hq = Hkv = 16, Nq = Nkv = N
  prefill256  D 256, not causal, the prefill lengths and batches
  gqa      B 4, Hq 32, Hkv 8, Nq = Nkv = 4096, D 128, causal 0 and 1
  decode   not causal, D 128 and 64, Hq 32, Hkv 8: Nq 1 with (B, Nkv) in
           (64, 4096), (32, 8192), (16, 16384), (8, 32768), (8, 65536),
           (1, 16384), and one sequence of 65536 keys with 16 heads (MHA);
           Nq 4 at (8, 32768) and Nq 16 at (32, 8192)
  varlen   packed sequences (layout thd, the peer of tilec's attn_varlen):
           bf16, Hq = Hkv = 16, D 128, causal, Nq = Nkv per sequence; the
           sequence lengths of each row:
             mixed      1, 17, 1000, 4095, 2048, 4096, 3000, 1223
             uniform4k  4 x 4096
             uniform1k  16 x 1024
             short      32 x 512
           Not in the default; only the SDPA impls (no Triton row).
--shapes replaces the presets (rows get preset "custom").

The varlen preset: Q, K and V are packed [tokens, 16, 128] (normal, seeded
with its own generator, so adding it leaves the other presets' inputs as
they were), viewed as jagged nested tensors (B, j, H, D) with
torch.nested.nested_tensor_from_jagged over the cumulative offsets (one
offsets tensor shared by the three, min/max length given so that no call
syncs to compute them) and transposed to (B, H, j, D); SDPA (is_causal=True,
per sequence, top-left = bottom-right as Nq = Nkv) then runs the backends'
varlen kernels. Rows: impl "torch-sdpa-{flash,efficient,cudnn}-varlen",
preset "varlen", shape "HqxHkvxNq0xNkv0xNq1xNkv1..." (tilec-run-examples'
form for packed shapes, e.g. "16x16x512x512x512x512..."), name (mixed, ...),
seq_lens, tokens; batch is the number of sequences and n_q = n_kv the
packed token count (not a per-sequence length). TFLOP/s = sum over the
sequences of 4 Hq n^2 D / 2, over the same time as the other rows; the time
includes the nested-tensor bookkeeping of each call (offsets to int32), so
the rows also carry us_queued / tflops_queued: the mean of 20 calls queued
behind a GPU sleep, that is without host time. Reference: per sequence, the
float32 reference below on [1, H, n, D]; a sequence with Hq n^2 over
--ref-limit is checked on its last rows only (as many as fit: they see all
the keys), and the row's note says so.

Causal, when Nq != Nkv, is aligned to the bottom-right corner as in
FlashAttention-2: query i sees keys j <= i + Nkv - Nq (a query that sees no
key gets a zero row). SDPA's is_causal=True aligns to the top-left, so SDPA
causal rows are run only when Nq == Nkv (otherwise the row carries an error).
Grouped-query attention (Hkv < Hq, query head h reads K/V head
h // (Hq // Hkv)): SDPA is first called with enable_gqa=True; a backend that
rejects it is timed on K and V expanded with repeat_interleave outside the
timed call, and the row says "kv_expanded": true.

Time: the median of 20 CUDA-event-timed calls after 5 warm-up calls (the
Triton kernel autotunes on its first call, before the warm-up). TFLOP/s =
4 B Hq Nq Nkv D / time, half of it when causal; kv_gbps = bytes of K and V
read once, 2 * B Hkv Nkv D * 2 bytes, / time. Q, K and V are uniform in
[-1, 1]. Where B Hq Nq Nkv <= --ref-limit (2^28: the float32 scores of the
reference fit), each output is compared with a float32 reference computed
with plain torch matmuls and softmax from the same bf16 inputs (the
bottom-right causal mask included): max_abs_error, reported, not judged.
A backend that cannot run a shape gets its error string (with the reasons
torch warned about) and a null time; the script goes on. The JSON (--json) is
rewritten after every shape, so a run cut short keeps what it measured."""
import argparse
import itertools
import json
import math
import sys
import warnings

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

# The same timing as the hand-written kernel's peer: the median of 20
# event-timed calls after 5 warm-up calls.
from sdpa_peer import median_us

try:
    import triton
    import triton.language as tl
    TRITON_ERROR = ""
except Exception as e:  # triton not installed: the triton rows carry this
    triton = None
    TRITON_ERROR = f"triton not importable: {type(e).__name__}: {e}"

BACKENDS = {"flash": SDPBackend.FLASH_ATTENTION,
            "cudnn": SDPBackend.CUDNN_ATTENTION,
            "efficient": SDPBackend.EFFICIENT_ATTENTION}
IMPLS = ("flash", "cudnn", "efficient", "triton")
LOG2E = 1.4426950408889634
REF_LIMIT = 1 << 28
SMEM_BYTES = 227 * 1024  # opt-in shared memory per block on H100 / H200


def preset_shapes(name):
    """(B, Hq, Hkv, Nq, Nkv, D, causal) of one preset."""
    if name == "prefill":
        return [(16384 // n, 16, 16, n, n, d, causal)
                for d in (64, 128) for causal in (False, True)
                for n in (512, 1024, 2048, 4096, 8192, 16384)]
    if name == "prefill256":
        return [(16384 // n, 16, 16, n, n, 256, False)
                for n in (512, 1024, 2048, 4096, 8192, 16384)]
    if name == "gqa":
        return [(4, 32, 8, 4096, 4096, 128, causal)
                for causal in (False, True)]
    if name == "decode":
        # A few query rows too (speculative decoding): 4 and 16.
        return [(b, hq, hkv, nq, n, d, False) for d in (128, 64)
                for b, hq, hkv, nq, n in (
                    (64, 32, 8, 1, 4096), (32, 32, 8, 1, 8192),
                    (16, 32, 8, 1, 16384), (8, 32, 8, 1, 32768),
                    (8, 32, 8, 1, 65536), (1, 32, 8, 1, 16384),
                    (1, 16, 16, 1, 65536), (8, 32, 8, 4, 32768),
                    (32, 32, 8, 16, 8192))]
    raise ValueError(f"unknown preset {name!r} "
                     "(prefill, prefill256, gqa, decode, varlen)")


# The varlen preset: (name, sequence lengths) per row; Hq = Hkv, causal.
VARLEN = (("mixed", (1, 17, 1000, 4095, 2048, 4096, 3000, 1223)),
          ("uniform4k", (4096,) * 4),
          ("uniform1k", (1024,) * 16),
          ("short", (512,) * 32))
VARLEN_HEADS, VARLEN_DIM = 16, 128
VARLEN_IMPLS = ("flash", "cudnn", "efficient")  # no Triton varlen kernel
VARLEN_SEED = 20261125


def varlen_shape_string(hq, hkv, lens):
    """tilec-run-examples' packed shape: HqxHkvxNq0xNkv0xNq1xNkv1... (here
    Nq = Nkv per sequence)."""
    return "x".join(str(x) for x in
                    [hq, hkv] + [n for n in lens for _ in (0, 1)])


def varlen_offsets(lens):
    """The cumulative offsets [0, n0, n0 + n1, ..., tokens]."""
    out = [0]
    for n in lens:
        out.append(out[-1] + n)
    return out


def varlen_flops(hq, lens, d):
    """Causal: sum over the sequences of 4 Hq n^2 D / 2."""
    return sum(4.0 * hq * n * n * d / 2 for n in lens)


def parse_shapes(text):
    shapes = []
    for item in text.split(";"):
        if not item.strip():
            continue
        fields = [int(x) for x in item.split(",")]
        if len(fields) != 7:
            raise ValueError(f"shape {item!r}: want B,Hq,Hkv,Nq,Nkv,D,causal")
        b, hq, hkv, nq, nkv, d, causal = fields
        if min(b, hq, hkv, nq, nkv, d) < 1 or hq % hkv:
            raise ValueError(f"shape {item!r}: sizes must be positive and "
                             f"Hq a multiple of Hkv")
        shapes.append((b, hq, hkv, nq, nkv, d, bool(causal)))
    return shapes


def one_line(text):
    return " ".join(str(text).split())


def guarded(fn, *args):
    """fn(*args) and "", or None and the error, with the reasons torch
    gave as warnings (SDPA says why a forced backend cannot run only there:
    the exception itself is "No available kernel")."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            return fn(*args), ""
        except Exception as e:
            message = f"{type(e).__name__}: {one_line(e)}"
            reasons = list(dict.fromkeys(one_line(w.message) for w in caught))
            if reasons:
                message += " [" + "; ".join(reasons) + "]"
            return None, message
        finally:
            torch.cuda.empty_cache()  # after an out-of-memory, for the next


# ---------------------------------------------------------------------------
# The Triton kernel
# ---------------------------------------------------------------------------

if triton is not None:

    def _configs():
        return [triton.Config({"BLOCK_M": bm, "BLOCK_N": bn}, num_warps=w,
                              num_stages=s)
                for bm, bn, w, s in itertools.product(
                    (64, 128), (32, 64, 128), (4, 8), (2, 3, 4))]

    def _next_pow2(n):
        return 1 << max(0, int(n) - 1).bit_length()

    def _prune(configs, named_args, **kwargs):
        """Drops configs whose blocks are larger than the problem (BLOCK_M
        over the query rows, BLOCK_N over the keys: decode keeps BLOCK_M 64
        only), 8 warps on less than a 128x128 score block, and those whose
        Q tile plus num_stages K and V tiles overflow shared memory."""
        args = {**named_args, **kwargs}
        n_q, n_kv, d = int(args["N_Q"]), int(args["N_KV"]), int(args["HEAD_DIM"])
        kept = []
        for c in configs:
            bm, bn = c.kwargs["BLOCK_M"], c.kwargs["BLOCK_N"]
            if bm > max(64, _next_pow2(n_q)) or bn > max(32, _next_pow2(n_kv)):
                continue
            if c.num_warps == 8 and bm * bn < 128 * 128:
                continue
            if 2 * (bm * d + c.num_stages * 2 * bn * d) > SMEM_BYTES:
                continue
            kept.append(c)
        return kept or [min(configs, key=lambda c: (c.kwargs["BLOCK_M"],
                                                    c.kwargs["BLOCK_N"],
                                                    c.num_stages))]

    @triton.jit
    def _attn_fwd_blocks(acc, l_i, m_i, q, k_base, v_base, stride_kn,
                         stride_vn, offs_m, offs_n, offs_d, lo, hi, n_kv,
                         diag, qk_scale, BLOCK_N: tl.constexpr,
                         MASKED: tl.constexpr, CAUSAL: tl.constexpr):
        """Key blocks [lo, hi) of one query block into the running (acc,
        l_i, m_i); m_i is the row maximum of the scores already scaled by
        scale * log2(e). MASKED: the keys past n_kv, and when CAUSAL those
        past the row's diagonal (key j > row i + diag), get no weight; a row
        that has seen no key yet keeps m_i = -inf, l_i = 0, acc = 0."""
        for start_n in range(lo, hi, BLOCK_N):
            start_n = tl.multiple_of(start_n, BLOCK_N)
            cols = start_n + offs_n
            k_ptrs = k_base + cols[None, :] * stride_kn + offs_d[:, None]
            v_ptrs = v_base + cols[:, None] * stride_vn + offs_d[None, :]
            if MASKED:
                k = tl.load(k_ptrs, mask=cols[None, :] < n_kv, other=0.0)
            else:
                k = tl.load(k_ptrs)
            qk = tl.dot(q, k)  # [BLOCK_M, BLOCK_N] in float32
            if MASKED:
                if CAUSAL:
                    keep = ((cols[None, :] < n_kv)
                            & (cols[None, :] <= offs_m[:, None] + diag))
                else:
                    keep = cols[None, :] < n_kv
                qk = tl.where(keep, qk, float("-inf"))
                m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
                # A row with no visible key so far: subtract 0, not -inf.
                m_sub = tl.where(m_new == float("-inf"), 0.0, m_new)
            else:
                m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
                m_sub = m_new
            p = tl.math.exp2(qk * qk_scale - m_sub[:, None])
            alpha = tl.math.exp2(m_i - m_sub)
            l_i = l_i * alpha + tl.sum(p, 1)
            acc = acc * alpha[:, None]
            if MASKED:
                v = tl.load(v_ptrs, mask=cols[:, None] < n_kv, other=0.0)
            else:
                v = tl.load(v_ptrs)
            acc = tl.dot(p.to(v.dtype), v, acc)
            m_i = m_new
        return acc, l_i, m_i

    @triton.autotune(configs=_configs(),
                     key=["BATCH", "H_Q", "GROUP", "N_Q", "N_KV", "HEAD_DIM",
                          "CAUSAL"],
                     prune_configs_by={"early_config_prune": _prune})
    @triton.jit
    def _attn_fwd(Q, K, V, O, qk_scale,
                  stride_qb, stride_qh, stride_qm,
                  stride_kb, stride_kh, stride_kn,
                  stride_vb, stride_vh, stride_vn,
                  stride_ob, stride_oh, stride_om,
                  BATCH, H_Q, GROUP, N_Q, N_KV,
                  HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
        """One program: BLOCK_M query rows of one (batch, query head); the
        head dim is contiguous (stride 1) in all four tensors."""
        if CAUSAL:  # the longest rows (bottom blocks) start first
            start_m = (tl.num_programs(0) - 1 - tl.program_id(0)) * BLOCK_M
        else:
            start_m = tl.program_id(0) * BLOCK_M
        bh = tl.program_id(1)
        head = bh % H_Q
        b64 = (bh // H_Q).to(tl.int64)
        h64 = head.to(tl.int64)
        hk64 = (head // GROUP).to(tl.int64)
        offs_m = start_m + tl.arange(0, BLOCK_M)
        offs_n = tl.arange(0, BLOCK_N)
        offs_d = tl.arange(0, HEAD_DIM)
        q_ptrs = (Q + b64 * stride_qb + h64 * stride_qh
                  + offs_m[:, None] * stride_qm + offs_d[None, :])
        q = tl.load(q_ptrs, mask=offs_m[:, None] < N_Q, other=0.0)
        k_base = K + b64 * stride_kb + hk64 * stride_kh
        v_base = V + b64 * stride_vb + hk64 * stride_vh
        m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
        l_i = tl.zeros([BLOCK_M], tl.float32)
        acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
        diag = N_KV - N_Q  # bottom-right: row i sees keys j <= i + diag
        if CAUSAL:
            # Keys [0, start_m + diag + 1) are visible to every row of the
            # block: whole blocks of them go unmasked. Then the diagonal
            # blocks, masked, up to the last key the block's last real row
            # sees; blocks past it are skipped.
            full = tl.maximum(start_m + diag + 1, 0) // BLOCK_N * BLOCK_N
            end = tl.minimum(tl.minimum(start_m + BLOCK_M, N_Q) + diag, N_KV)
            end = tl.maximum(end, full)
        else:
            full = N_KV // BLOCK_N * BLOCK_N
            end = N_KV
        acc, l_i, m_i = _attn_fwd_blocks(
            acc, l_i, m_i, q, k_base, v_base, stride_kn, stride_vn, offs_m,
            offs_n, offs_d, 0, full, N_KV, diag, qk_scale, BLOCK_N=BLOCK_N,
            MASKED=False, CAUSAL=CAUSAL)
        acc, l_i, m_i = _attn_fwd_blocks(
            acc, l_i, m_i, q, k_base, v_base, stride_kn, stride_vn, offs_m,
            offs_n, offs_d, full, end, N_KV, diag, qk_scale, BLOCK_N=BLOCK_N,
            MASKED=True, CAUSAL=CAUSAL)
        l_i = tl.where(l_i == 0.0, 1.0, l_i)  # a row that saw no key: zeros
        out = acc / l_i[:, None]
        o_ptrs = (O + b64 * stride_ob + h64 * stride_oh
                  + offs_m[:, None] * stride_om + offs_d[None, :])
        tl.store(o_ptrs, out.to(O.dtype.element_ty),
                 mask=offs_m[:, None] < N_Q)


def triton_attention(q, k, v, causal):
    """O = softmax(Q K^T / sqrt(D) [+ bottom-right causal]) V for q
    [B, Hq, Nq, D] and k, v [B, Hkv, Nkv, D] (bf16, head dim contiguous)."""
    if triton is None:
        raise RuntimeError(TRITON_ERROR)
    b, hq, nq, d = q.shape
    hkv, nkv = k.shape[1], k.shape[2]
    if hq % hkv:
        raise ValueError(f"Hq {hq} is not a multiple of Hkv {hkv}")
    if d < 16 or d & (d - 1):
        raise ValueError(f"head dim {d}: the kernel wants a power of two >= 16")
    if b * hq > 65535:
        raise ValueError(f"B*Hq = {b * hq} programs on grid axis 1 (> 65535)")
    if any(t.stride(-1) != 1 for t in (q, k, v)):
        raise ValueError("the head dim must be contiguous")
    o = torch.empty_like(q)

    def grid(meta):
        return (triton.cdiv(nq, meta["BLOCK_M"]), b * hq)

    _attn_fwd[grid](q, k, v, o, d ** -0.5 * LOG2E,
                    q.stride(0), q.stride(1), q.stride(2),
                    k.stride(0), k.stride(1), k.stride(2),
                    v.stride(0), v.stride(1), v.stride(2),
                    o.stride(0), o.stride(1), o.stride(2),
                    b, hq, hq // hkv, nq, nkv,
                    HEAD_DIM=d, CAUSAL=bool(causal))
    return o


# ---------------------------------------------------------------------------
# Reference and rows
# ---------------------------------------------------------------------------

def reference(q, k, v, causal):
    """float32 attention of the same bf16 inputs by plain matmuls; the
    query heads of one K/V head are stacked along the rows (no K/V copy)."""
    b, hq, nq, d = q.shape
    hkv, nkv = k.shape[1], k.shape[2]
    group = hq // hkv
    qf = q.float().reshape(b, hkv, group * nq, d)
    s = torch.matmul(qf, k.float().transpose(-1, -2)).mul_(d ** -0.5)
    del qf
    if causal:
        rows = torch.arange(group * nq, device=q.device) % nq
        cols = torch.arange(nkv, device=q.device)
        s.masked_fill_(cols[None, :] > rows[:, None] + (nkv - nq),
                       float("-inf"))
    p = torch.softmax(s, dim=-1)
    del s
    p.nan_to_num_(nan=0.0)  # rows that see no key: zero output
    return torch.matmul(p, v.float()).reshape(b, hq, nq, d)


def max_abs_error(out, ref):
    if ref is None:
        return None
    err = (out.float() - ref).abs().max().item()
    return err if math.isfinite(err) else None


def new_row(impl, preset, shape):
    b, hq, hkv, nq, nkv, d, causal = shape
    return {"impl": impl, "batch": b, "heads": hq, "kv_heads": hkv,
            "n_q": nq, "n_kv": nkv, "dim": d, "causal": causal,
            "preset": preset, "shape": f"{b}x{hq}x{hkv}x{nq}x{nkv}",
            "us": None, "tflops": None, "kv_gbps": None,
            "max_abs_error": None, "kv_expanded": False, "error": ""}


def finish(row, out, ref):
    b, hq, hkv = row["batch"], row["heads"], row["kv_heads"]
    nq, nkv, d, us = row["n_q"], row["n_kv"], row["dim"], row["us"]
    flops = 4.0 * b * hq * nq * nkv * d / (2 if row["causal"] else 1)
    row["tflops"] = flops / us * 1e-6
    row["kv_gbps"] = 2.0 * b * hkv * nkv * d * 2 / us * 1e-3
    row["max_abs_error"] = max_abs_error(out, ref)
    if ref is not None and row["max_abs_error"] is None:
        row["note"] = "non-finite output"
    return row


def sdpa_row(backend, preset, shape, q, k, v, ref):
    row = new_row(f"torch-sdpa-{backend}", preset, shape)
    b, hq, hkv, nq, nkv, d, causal = shape
    if causal and nq != nkv:
        row["error"] = "causal with n_q != n_kv: SDPA aligns top-left"
        return row
    kwargs = {"is_causal": causal, "scale": d ** -0.5}

    def measure(kk, vv, **extra):
        def call():
            return F.scaled_dot_product_attention(q, kk, vv, **kwargs, **extra)
        with sdpa_kernel(BACKENDS[backend]):
            out = call()
            return out, median_us(call)

    if hq == hkv:
        result, error = guarded(lambda: measure(k, v))
    else:
        result, error = guarded(lambda: measure(k, v, enable_gqa=True))
        if result is None:
            gqa_error = error
            group = hq // hkv
            expanded, error = guarded(lambda: (
                k.repeat_interleave(group, dim=1),
                v.repeat_interleave(group, dim=1)))
            if expanded is not None:
                result, error = guarded(lambda: measure(*expanded))
                del expanded
                torch.cuda.empty_cache()
            if result is None:
                error = f"enable_gqa: {gqa_error}; expanded K/V: {error}"
            else:
                row["kv_expanded"] = True
                row["note"] = f"enable_gqa: {gqa_error}"
    if result is None:
        row["error"] = error
        return row
    out, row["us"] = result
    return finish(row, out, ref)


def triton_row(preset, shape, q, k, v, ref):
    row = new_row("triton", preset, shape)
    causal = shape[6]

    def measure():
        def call():
            return triton_attention(q, k, v, causal)
        out = call()  # autotunes
        return out, median_us(call)

    result, error = guarded(measure)
    if result is None:
        row["error"] = error
        return row
    out, row["us"] = result
    config = getattr(_attn_fwd, "best_config", None)
    if config is not None:
        row["config"] = (f"BLOCK_M={config.kwargs['BLOCK_M']} "
                         f"BLOCK_N={config.kwargs['BLOCK_N']} "
                         f"warps={config.num_warps} stages={config.num_stages}")
    return finish(row, out, ref)


# ---------------------------------------------------------------------------
# Packed sequences (the varlen preset)
# ---------------------------------------------------------------------------

def queued_us(fn, runs=20, sleep_cycles=20_000_000):
    """The mean time of `runs` calls queued behind a GPU sleep (about 10 ms
    at 2 GHz), so that the host's time between calls does not count. If
    the first call had already started when the host finished queueing
    them all (the sleep was too short), again with a longer sleep."""
    fn()
    torch.cuda.synchronize()
    for _ in range(4):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(sleep_cycles)
        start.record()
        for _ in range(runs):
            fn()
        end.record()
        queued = not start.query()  # the GPU still sleeps: all are queued
        end.synchronize()
        if queued:
            return start.elapsed_time(end) * 1000.0 / runs
        sleep_cycles *= 4
    raise RuntimeError("the host could not queue the calls within the sleep "
                       "(does the call sync with the GPU?)")


def varlen_jagged(values, offsets, lens):
    """The packed values [tokens, H, D] as a jagged nested tensor
    (B, j, H, D) over `offsets`, transposed to (B, H, j, D)."""
    nested = torch.nested.nested_tensor_from_jagged
    try:  # given, torch need not compute them (a sync) on each call
        nt = nested(values, offsets, min_seqlen=min(lens),
                    max_seqlen=max(lens))
    except TypeError:  # a torch without min_seqlen / max_seqlen
        nt = nested(values, offsets)
    return nt.transpose(1, 2)


def varlen_inputs(lens):
    """Packed q, k, v [tokens, 16, 128] bf16 (normal, own generator) and
    their jagged (B, H, j, D) views, one offsets tensor for the three."""
    gen = torch.Generator(device="cuda")
    gen.manual_seed(VARLEN_SEED)
    shape = (sum(lens), VARLEN_HEADS, VARLEN_DIM)
    packed = [torch.randn(shape, generator=gen, device="cuda",
                          dtype=torch.bfloat16) for _ in range(3)]
    offsets = torch.tensor(varlen_offsets(lens), device="cuda",
                           dtype=torch.int64)
    return packed, [varlen_jagged(t, offsets, lens) for t in packed]


def varlen_reference(q, k, v, lens, ref_limit):
    """[(first token, float32 reference [m, H, D])] per checked sequence and
    the number of sequences checked on part of their rows only: sequence i
    on its last m rows, m = n where Hq n^2 fits ref_limit, else as many as
    fit (bottom-right causal on [1, H, m, n]: the last m rows of the n x n
    causal problem)."""
    hq = q.shape[1]
    refs, partial = [], 0
    for lo, n in zip(varlen_offsets(lens), lens):
        m = n if hq * n * n <= ref_limit else ref_limit // (hq * n)
        if m < n:
            partial += 1
        if m < 1:
            continue
        qs = q[lo + n - m:lo + n].transpose(0, 1).unsqueeze(0)
        ks = k[lo:lo + n].transpose(0, 1).unsqueeze(0)
        vs = v[lo:lo + n].transpose(0, 1).unsqueeze(0)
        refs.append((lo + n - m, reference(qs, ks, vs, True)[0]
                     .transpose(0, 1)))
    return refs, partial


def varlen_packed_output(out, tokens):
    """SDPA's nested (B, H, j, D) output as packed [tokens, H, D]."""
    values = out.transpose(1, 2).values()
    want = (tokens, VARLEN_HEADS, VARLEN_DIM)
    if tuple(values.shape) != want:
        raise RuntimeError(f"output values {tuple(values.shape)}, want {want}")
    return values


def varlen_max_abs_error(out, refs):
    if not refs:
        return None
    worst = 0.0
    for lo, ref in refs:
        err = (out[lo:lo + ref.shape[0]].float() - ref).abs().max().item()
        if not math.isfinite(err):
            return None
        worst = max(worst, err)
    return worst


def new_varlen_row(backend, name, lens):
    hq = hkv = VARLEN_HEADS
    tokens = sum(lens)
    row = new_row(f"torch-sdpa-{backend}-varlen", "varlen",
                  (len(lens), hq, hkv, tokens, tokens, VARLEN_DIM, True))
    row["shape"] = varlen_shape_string(hq, hkv, lens)
    row.update(name=name, seq_lens=list(lens), tokens=tokens,
               us_queued=None, tflops_queued=None)
    return row


def varlen_sdpa_row(row, backend, qn, kn, vn, refs, partial):
    lens, tokens, d = row["seq_lens"], row["tokens"], row["dim"]
    notes = []

    def measure():
        def call():
            return F.scaled_dot_product_attention(qn, kn, vn, is_causal=True,
                                                  scale=d ** -0.5)
        with sdpa_kernel(BACKENDS[backend]):
            out = call()
            us = median_us(call)
            queued, error = guarded(queued_us, call)
            if queued is None:
                notes.append(f"us_queued: {error}")
            return out, us, queued

    result, error = guarded(measure)
    if result is None:
        row["error"] = error
        return row
    out, us, queued = result
    flops = varlen_flops(row["heads"], lens, d)
    row["us"] = us
    row["tflops"] = flops / us * 1e-6
    row["kv_gbps"] = 2.0 * row["kv_heads"] * tokens * d * 2 / us * 1e-3
    if queued is not None:
        row["us_queued"] = queued
        row["tflops_queued"] = flops / queued * 1e-6
    if refs is not None:
        packed, error = guarded(varlen_packed_output, out, tokens)
        if packed is None:
            notes.append(f"no check: {error}")
        else:
            row["max_abs_error"] = varlen_max_abs_error(packed, refs)
            if row["max_abs_error"] is None and refs:
                notes.append("non-finite output")
        if partial:
            notes.append(f"{partial} sequences checked on their last rows "
                         "only (--ref-limit)")
    if notes:
        row["note"] = "; ".join(notes)
    return row


def varlen_rows(name, lens, impls, ref_limit):
    """The rows of one varlen shape, one per SDPA backend in impls, as they
    are measured."""
    backends = [b for b in impls if b in VARLEN_IMPLS]
    if not backends:
        return
    built, error = guarded(varlen_inputs, lens)
    if built is None:
        for backend in backends:
            row = new_varlen_row(backend, name, lens)
            row["error"] = f"nested tensors: {error}"
            yield row
        return
    (q, k, v), (qn, kn, vn) = built
    del built
    refs, partial = None, 0
    result, error = guarded(varlen_reference, q, k, v, lens, ref_limit)
    if result is None:
        print(f"no reference for varlen {name}: {error}", flush=True)
    else:
        refs, partial = result
    del result
    for backend in backends:
        yield varlen_sdpa_row(new_varlen_row(backend, name, lens), backend,
                              qn, kn, vn, refs, partial)
        torch.cuda.empty_cache()


def print_varlen_row(r):
    """print_row with the name for the shape and the queued time as note."""
    shown = dict(r, shape=f"{r['name']} B={r['batch']}")
    if r["us_queued"] is not None:
        shown["config"] = (f"queued {r['us_queued']:.1f} us "
                           f"{r['tflops_queued']:.1f} TFLOP/s")
    print_row(shown)


def print_header():
    print(f"{'impl':<20} {'shape BxHqxHkvxNqxNkv':<22} {'D':>3} {'causal':<6} "
          f"{'time_us':>9} {'TFLOP/s':>8} {'KV GB/s':>8} {'max_abs':>9}  note",
          flush=True)


def print_row(r):
    head = (f"{r['impl']:<20} {r['shape']:<22} {r['dim']:>3} "
            f"{str(r['causal']):<6} ")
    if r["error"]:
        print(head + f"unavailable: {r['error'][:200]}", flush=True)
        return
    err = r["max_abs_error"]
    note = "kv_expanded" if r["kv_expanded"] else r.get("config", "")
    print(head + f"{r['us']:>9.1f} {r['tflops']:>8.1f} {r['kv_gbps']:>8.0f} "
          f"{'-' if err is None else f'{err:.2e}':>9}  {note}", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", help="write the rows here")
    p.add_argument("--preset", default="prefill,gqa,decode",
                   help="comma-separated: prefill, prefill256, gqa, decode, "
                        "varlen")
    p.add_argument("--shapes", help='"B,Hq,Hkv,Nq,Nkv,D,causal;..." '
                   "(replaces --preset)")
    p.add_argument("--impls", default=",".join(IMPLS),
                   help="comma-separated subset of " + ",".join(IMPLS))
    p.add_argument("--ref-limit", type=int, default=REF_LIMIT,
                   help="largest B*Hq*Nq*Nkv checked against the float32 "
                        "reference (default 2^28)")
    args = p.parse_args()
    impls = [x.strip() for x in args.impls.split(",") if x.strip()]
    unknown = [x for x in impls if x not in IMPLS]
    if unknown:
        p.error(f"unknown impls {unknown}: choose from {','.join(IMPLS)}")
    try:
        if args.shapes:
            work = [("custom", s) for s in parse_shapes(args.shapes)]
        else:
            work = [("varlen", s) if name.strip() == "varlen" else (name, s)
                    for name in args.preset.split(",") if name
                    for s in (VARLEN if name.strip() == "varlen"
                              else preset_shapes(name.strip()))]
    except ValueError as e:
        p.error(str(e))

    torch.manual_seed(20261123)
    torch.set_float32_matmul_precision("highest")  # no TF32 in the reference
    device = torch.cuda.get_device_name()
    triton_version = triton.__version__ if triton is not None else None
    print(f"{device}, torch {torch.__version__}, CUDA {torch.version.cuda}, "
          f"cuDNN {torch.backends.cudnn.version()}, triton {triton_version}",
          flush=True)
    if triton is None and "triton" in impls:
        print(TRITON_ERROR, flush=True)

    rows = []

    def write_json():
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"device": device, "torch": torch.__version__,
                           "cuda": torch.version.cuda,
                           "cudnn": torch.backends.cudnn.version(),
                           "triton": triton_version, "results": rows},
                          f, indent=2)

    print_header()
    for preset, shape in work:
        if preset == "varlen":
            name, lens = shape
            print(f"varlen {name}: {len(lens)} sequences, {sum(lens)} tokens, "
                  f"{varlen_shape_string(VARLEN_HEADS, VARLEN_HEADS, lens)}",
                  flush=True)
            for row in varlen_rows(name, lens, impls, args.ref_limit):
                rows.append(row)
                print_varlen_row(row)
            torch.cuda.empty_cache()
            write_json()
            continue
        b, hq, hkv, nq, nkv, d, causal = shape
        q = torch.empty((b, hq, nq, d), device="cuda", dtype=torch.bfloat16)
        k = torch.empty((b, hkv, nkv, d), device="cuda", dtype=torch.bfloat16)
        v = torch.empty((b, hkv, nkv, d), device="cuda", dtype=torch.bfloat16)
        for t in (q, k, v):
            t.uniform_(-1.0, 1.0)
        ref = None
        if b * hq * nq * nkv <= args.ref_limit:
            ref, error = guarded(reference, q, k, v, causal)
            if ref is None:
                print(f"no reference for {shape}: {error}", flush=True)
        for impl in impls:
            if impl == "triton":
                row = triton_row(preset, shape, q, k, v, ref)
            else:
                row = sdpa_row(impl, preset, shape, q, k, v, ref)
            rows.append(row)
            print_row(row)
            torch.cuda.empty_cache()
        del q, k, v, ref
        torch.cuda.empty_cache()
        write_json()
    write_json()
    failed = sum(1 for r in rows if r["error"])
    print(f"{len(rows)} rows, {failed} with an error", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
