/**
 * CVSS 3.1 base scores for committed secrets, by what the secret lets its finder do. Every vector
 * starts AV:N/AC:L/PR:N/UI:N/S:U: a secret in a repository is used over the network by anyone who
 * can read it, with no further privilege and no one's help. The impact metrics then rank a key to
 * a whole cloud or payment account above a credential whose reach we cannot tell.
 */
export const SECRET_CVSS = {
  /** C:H/I:H/A:H: the owner's account itself (cloud, source host, payments, package registry, a private key). */
  accountTakeover: 9.8,
  /** C:H/I:H/A:N: an API acting as the owner, reading and writing, not taking the account down. */
  apiReadWrite: 9.1,
  /** C:H/I:L/A:N: an API key that reads data and runs up its project's bill. */
  apiRead: 8.2,
  /** AC:H, C:H/I:H/A:H: a login to a named host, which may not be reachable from outside. */
  hostLogin: 8.1,
  /** C:H/I:N/A:N: a credential of unknown reach; what it discloses is all we can claim. */
  unknownReach: 7.5,
  /** C:N/I:L/A:N: it can only post messages (an incoming webhook). */
  postOnly: 5.3,
} as const;

/** CWE-798, Use of Hard-coded Credentials: passwords, tokens and API keys. */
export const CWE_HARD_CODED_CREDENTIALS = 'CWE-798';
/** CWE-321, Use of Hard-coded Cryptographic Key: a private key in the source. */
export const CWE_HARD_CODED_KEY = 'CWE-321';
