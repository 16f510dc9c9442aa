// A software passkey authenticator for API tests (a browser's own is covered by the inbox's browser tests, through
// Chromium's virtual authenticator): ES256 keys from node:crypto, and registration ('none' attestation) and assertion
// responses built as the WebAuthn spec lays them out, in the base64url JSON @simplewebauthn/browser sends. CBOR through
// the encoder @simplewebauthn/server itself uses.
import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';

// authenticatorData flags (WebAuthn §6.1): user present, user verified, attested credential data included.
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

const b64url = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

export interface SoftCredential {
  id: string;
  rpId: string;
  userHandle: string;
  privateKey: KeyObject;
  signCount: number;
}

export interface CeremonyOptions {
  origin: string;
  /** Leave out user verification (UV), as an authenticator without a PIN or biometrics would. */
  unverified?: boolean;
}

function authenticatorData(rpId: string, flags: number, signCount: number, attested?: Buffer): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(signCount);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
}

/** The public key as a COSE_Key (EC2, P-256, ES256). */
function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  return isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x ?? '', 'base64url')],
      [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]),
  );
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  /** navigator.credentials.create(): a new resident ES256 credential for the options' relying party. */
  register(
    options: PublicKeyCredentialCreationOptionsJSON,
    ceremony: CeremonyOptions,
  ): RegistrationResponseJSON {
    const rpId = options.rp.id ?? new URL(ceremony.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credentialId = randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, coseKey(publicKey)]);
    const flags = UP | AT | (ceremony.unverified ? 0 : UV);
    const authData = authenticatorData(rpId, flags, 0, attested);
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: ceremony.origin,
      crossOrigin: false,
    });
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', authData],
      ]),
    );
    const id = b64url(credentialId);
    this.credentials.push({ id, rpId, userHandle: options.user.id, privateKey, signCount: 0 });
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get(): an assertion by `credential`, or by the newest one held for the relying party. */
  assert(
    options: PublicKeyCredentialRequestOptionsJSON,
    ceremony: CeremonyOptions & { credential?: SoftCredential },
  ): AuthenticationResponseJSON {
    const rpId = options.rpId ?? new URL(ceremony.origin).hostname;
    const credential = ceremony.credential ?? this.credentials.filter((held) => held.rpId === rpId).at(-1);
    if (!credential) throw new Error(`no credential for ${rpId}`);
    credential.signCount += 1;
    const authData = authenticatorData(rpId, UP | (ceremony.unverified ? 0 : UV), credential.signCount);
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.get',
      challenge: options.challenge,
      origin: ceremony.origin,
      crossOrigin: false,
    });
    // ES256: an ECDSA signature (DER, as node:crypto gives it) over authenticatorData || SHA-256(clientDataJSON).
    const signature = createSign('SHA256')
      .update(Buffer.concat([authData, sha256(clientDataJSON)]))
      .sign(credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
