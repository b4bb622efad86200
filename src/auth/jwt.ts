import { jwtVerify, SignJWT } from 'jose';

/** Decisions §2: HS256, iss = PUBLIC_URL, aud = redline, sub = user id, one hour. */
export const JWT_AUDIENCE = 'redline';
export const JWT_LIFETIME_SECONDS = 3600;
const ALGORITHM = 'HS256';

export interface JwtKeys {
  secret: Uint8Array;
  issuer: string;
}

export function jwtKeys(secret: string, issuer: string): JwtKeys {
  return { secret: new TextEncoder().encode(secret), issuer };
}

export async function signUserJwt(keys: JwtKeys, userId: string, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(keys.issuer)
    .setAudience(JWT_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + JWT_LIFETIME_SECONDS)
    .sign(keys.secret);
}

/** The user id, or undefined for anything not signed by us, expired or meant for someone else. */
export async function verifyUserJwt(keys: JwtKeys, token: string, now: Date): Promise<string | undefined> {
  try {
    const { payload } = await jwtVerify(token, keys.secret, {
      algorithms: [ALGORITHM],
      issuer: keys.issuer,
      audience: JWT_AUDIENCE,
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    return typeof payload.sub === 'string' && payload.sub.startsWith('usr_') ? payload.sub : undefined;
  } catch {
    return undefined;
  }
}
