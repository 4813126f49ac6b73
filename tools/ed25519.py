"""Ed25519 signature verification (RFC 8032, section 5.1.7), standard library only, for tools/verify_log.py.

Written from the RFC: points in extended coordinates (X, Y, Z, T) with x = X/Z, y = Y/Z, x*y = T/Z; the check is the
cofactorless [S]B = R + [k]A, with k = SHA-512(R || A || M) mod L, as the signers this project uses (OpenSSL through
Node, and WebCrypto) compute it. Verification uses public values only, so it need not run in constant time; a log holds
a signature an event by a few keys, so B and each key A get tables of their multiples for every four bits of a scalar,
made once, and [S]B and [k]A are then each one addition for every four bits, with no doubling.
"""
import hashlib

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
D2 = 2 * D % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
IDENTITY = (0, 1, 1, 0)


def _add(a, b):
    """a + b (RFC 8032, 5.1.4: "add-2008-hwcd-3")."""
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    e = (y1 - x1) * (y2 - x2) % P
    f = (y1 + x1) * (y2 + x2) % P
    g = t1 * D2 * t2 % P
    h = 2 * z1 * z2 % P
    e, f, g, h = f - e, h - g, h + g, f + e
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _double(a):
    """2a (RFC 8032, 5.1.4: "dbl-2008-hwcd"), fewer products than a + a."""
    x1, y1, z1, _ = a
    a_ = x1 * x1 % P
    b = y1 * y1 % P
    c = 2 * z1 * z1 % P
    h = a_ + b
    e = h - (x1 + y1) * (x1 + y1)
    g = a_ - b
    f = c + g
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _same(a, b):
    return (a[0] * b[2] - b[0] * a[2]) % P == 0 and (a[1] * b[2] - b[1] * a[2]) % P == 0


def _decode_point(encoded):
    """The point of a 32-byte encoding (RFC 8032, 5.1.3), or None where it names none."""
    y = int.from_bytes(encoded, "little")
    sign, y = y >> 255, y & ((1 << 255) - 1)
    if y >= P:
        return None
    u, v = (y * y - 1) % P, (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    if (v * x * x - u) % P != 0:
        if (v * x * x + u) % P != 0:
            return None
        x = x * SQRT_M1 % P
    if x == 0 and sign:
        return None
    if x & 1 != sign:
        x = P - x
    return (x, y, 1, x * y % P)


BASE = _decode_point(bytes.fromhex("5866666666666666666666666666666666666666666666666666666666666666"))
_WINDOWS = range(0, 256, 4)


def _window_tables(point):
    """[d * 16^w]point for every four-bit window w of a scalar below L and every digit d: [scalar]point is then one
    addition a window that is not zero, with no doubling."""
    tables = []
    for _ in _WINDOWS:
        row = [IDENTITY, point]
        for _ in range(14):
            row.append(_add(row[-1], point))
        tables.append(row)
        point = _double(_double(_double(_double(point))))
    return tables


def _times(scalar, tables):
    result = IDENTITY
    for row in tables:
        digit = scalar & 15
        if digit:
            result = _add(result, row[digit])
        scalar >>= 4
    return result


_BASE_TABLES = _window_tables(BASE)
# A log's signatures are by a few keys, each over many events: each key's point and tables are made once.
_KEY_TABLES = {}


def _key_tables(public_key):
    if public_key not in _KEY_TABLES:
        point = _decode_point(public_key)
        _KEY_TABLES[public_key] = None if point is None else _window_tables(point)
    return _KEY_TABLES[public_key]


def verify(public_key, message, signature):
    """Whether `signature` (64 bytes) is public_key's (32 bytes) over `message` (bytes)."""
    if len(public_key) != 32 or len(signature) != 64:
        return False
    a, r = _key_tables(bytes(public_key)), _decode_point(signature[:32])
    s = int.from_bytes(signature[32:], "little")
    if a is None or r is None or s >= L:
        return False
    k = int.from_bytes(hashlib.sha512(signature[:32] + public_key + message).digest(), "little") % L
    return _same(_times(s, _BASE_TABLES), _add(r, _times(k, a)))
