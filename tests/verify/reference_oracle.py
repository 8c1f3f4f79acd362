"""The float64 NumPy reference step as it stood before it was written against `ArrayOps`
(checks/workloads/_reference.py at 4d71c2d), kept unchanged as the oracle the generic one is
tested against (tests/verify/test_reference.py)."""


def windows(np, x):
    """(N,H,W,C) -> (N,H-2,W-2,3,3,C) views of every 3x3 patch (stride 1, valid)."""
    n, h, w, c = x.shape
    s = x.strides
    return np.lib.stride_tricks.as_strided(x, (n, h - 2, w - 2, 3, 3, c), (s[0], s[1], s[2], s[1], s[2], s[3]))


def first_max(np, blocks):
    """(n,12,2,12,2,c) pool windows -> a mask of the one element each window's gradient goes
    to: the first maximum in row-major order, as torch and TensorFlow route it."""
    n, c = blocks.shape[0], blocks.shape[-1]
    flat = blocks.transpose(0, 1, 3, 5, 2, 4).reshape(n, 12, 12, c, 4)
    mask = np.eye(4, dtype=bool)[flat.argmax(axis=-1)]  # (n,12,12,c,4)
    return mask.reshape(n, 12, 12, c, 2, 2).transpose(0, 1, 4, 2, 5, 3)


def every_max(np, blocks):
    """The mask of every maximum in each pool window: where PlaidML sends the gradient of a tie
    (a blank image region gives four equal values), where torch, TF, JAX and MLX pick one."""
    pooled = blocks.max(axis=(2, 4), keepdims=True)
    return blocks == pooled


POOL_ROUTES = {"first": first_max, "every": every_max}


def reference_step(np, x, labels, weights, pool_ties="first"):
    """x (N,28,28,1) in [0,1], integer labels, weights [8 arrays] -> (logits, loss, [grads]).
    pool_ties: which maxima of a tied pool window get its gradient ("first" or "every")."""
    w1, b1, w2, b2, w3, b3, w4, b4 = [np.asarray(w, dtype=np.float64) for w in weights]
    x = np.asarray(x, dtype=np.float64).reshape(-1, 28, 28, 1)
    n = x.shape[0]
    onehot = np.eye(10)[np.asarray(labels, dtype=np.int64)]
    p1 = windows(np, x)
    z1 = np.tensordot(p1, w1, axes=3) + b1
    a1 = np.maximum(z1, 0)
    p2 = windows(np, np.ascontiguousarray(a1))
    z2 = np.tensordot(p2, w2, axes=3) + b2
    a2 = np.maximum(z2, 0)
    blocks = a2.reshape(n, 12, 2, 12, 2, 64)
    pooled = blocks.max(axis=(2, 4))
    flat = pooled.reshape(n, -1)
    z3 = flat.dot(w3) + b3
    h = np.maximum(z3, 0)
    logits = h.dot(w4) + b4
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    loss = float(-(onehot * log_probs).sum() / n)
    d_logits = (np.exp(log_probs) - onehot) / n
    g_w4, g_b4 = h.T.dot(d_logits), d_logits.sum(0)
    d_z3 = d_logits.dot(w4.T) * (z3 > 0)
    g_w3, g_b3 = flat.T.dot(d_z3), d_z3.sum(0)
    d_pooled = d_z3.dot(w3.T).reshape(n, 12, 1, 12, 1, 64)
    winner = POOL_ROUTES[pool_ties](np, blocks)
    d_z2 = (winner * d_pooled).reshape(a2.shape) * (z2 > 0)
    g_w2, g_b2 = np.tensordot(p2, d_z2, axes=([0, 1, 2], [0, 1, 2])), d_z2.sum((0, 1, 2))
    d_p2 = np.tensordot(d_z2, w2, axes=([3], [3]))  # (n,24,24,3,3,32)
    d_a1 = np.zeros_like(a1)
    for i in range(3):
        for j in range(3):
            d_a1[:, i:i + 24, j:j + 24, :] += d_p2[:, :, :, i, j, :]
    d_z1 = d_a1 * (z1 > 0)
    g_w1, g_b1 = np.tensordot(p1, d_z1, axes=([0, 1, 2], [0, 1, 2])), d_z1.sum((0, 1, 2))
    return logits, loss, [g_w1, g_b1, g_w2, g_b2, g_w3, g_b3, g_w4, g_b4]
