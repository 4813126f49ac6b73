"""Ed25519 signature verification (RFC 8032, section 5.1.7), standard library only, for tools/verify_log.py.

Written from the RFC: points in extended coordinates (X, Y, Z, T) with x = X/Z, y = Y/Z, x*y = T/Z; the check is the
cofactorless [S]B = R + [k]A, with k = SHA-512(R || A || M) mod L, as the signers this project uses (OpenSSL through
Node, and WebCrypto) compute it. Verification uses public values only, so it need not run in constant time.
"""
import hashlib

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def _add(a, b):
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    e = (y1 - x1) * (y2 - x2) % P
    f = (y1 + x1) * (y2 + x2) % P
    g = 2 * t1 * t2 * D % P
    h = 2 * z1 * z2 % P
    e, f, g, h = f - e, h - g, h + g, f + e
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _multiply(scalar, point):
    result = (0, 1, 1, 0)
    while scalar:
        if scalar & 1:
            result = _add(result, point)
        point = _add(point, point)
        scalar >>= 1
    return result


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


def verify(public_key, message, signature):
    """Whether `signature` (64 bytes) is public_key's (32 bytes) over `message` (bytes)."""
    if len(public_key) != 32 or len(signature) != 64:
        return False
    a, r = _decode_point(public_key), _decode_point(signature[:32])
    s = int.from_bytes(signature[32:], "little")
    if a is None or r is None or s >= L:
        return False
    k = int.from_bytes(hashlib.sha512(signature[:32] + public_key + message).digest(), "little") % L
    return _same(_multiply(s, BASE), _add(r, _multiply(k, a)))
