"""Signs PDFs and validates their signatures with pyHanko, an implementation independent of Redline's.

    signatures.py sign IN OUT FOLDER [--certify annotate|forms|none]
        signs IN into OUT with a self-signed certificate kept in FOLDER (made there the first time); --certify makes
        it a certification signature (DocMDP) permitting annotations (annotate) or form filling only (forms)
    signatures.py check FILE FOLDER
        prints one JSON object per signature: whether its bytes are intact, it is valid against FOLDER's
        certificate, what it covers, what pyHanko's difference analysis finds changed after it, and whether that
        respects a certification's permissions
"""
import datetime
import json
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign import fields, signers
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko.keys import load_cert_from_pemder
from pyhanko_certvalidator import ValidationContext


def credentials(folder):
    key_path, cert_path = os.path.join(folder, "key.pem"), os.path.join(folder, "cert.pem")
    if not os.path.exists(cert_path):
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Redline test signer")])
        now = datetime.datetime.now(datetime.timezone.utc)
        cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
                .not_valid_after(now + datetime.timedelta(days=30))
                .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=True, key_encipherment=False,
                                             data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                             crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
                .sign(key, hashes.SHA256()))
        with open(key_path, "wb") as out:
            out.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                        serialization.NoEncryption()))
        with open(cert_path, "wb") as out:
            out.write(cert.public_bytes(serialization.Encoding.PEM))
    return key_path, cert_path


def sign(source, target, folder, certify):
    key_path, cert_path = credentials(folder)
    signer = signers.SimpleSigner.load(key_path, cert_path)
    permissions = {"annotate": fields.MDPPerm.ANNOTATE, "forms": fields.MDPPerm.FILL_FORMS}.get(certify)
    metadata = signers.PdfSignatureMetadata(field_name="Signature1", certify=permissions is not None,
                                            docmdp_permissions=permissions or fields.MDPPerm.ANNOTATE)
    with open(source, "rb") as stream, open(target, "wb") as out:
        signers.sign_pdf(IncrementalPdfFileWriter(stream, strict=False), metadata, signer=signer, output=out)


def check(path, folder):
    _, cert_path = credentials(folder)
    context = ValidationContext(trust_roots=[load_cert_from_pemder(cert_path)], allow_fetching=False)
    with open(path, "rb") as stream:
        reader = PdfFileReader(stream, strict=False)
        for signature in reader.embedded_signatures:
            status = validate_pdf_signature(signature, context)
            level = status.modification_level
            print(json.dumps({"field": signature.field_name, "intact": status.intact, "valid": status.valid,
                              "coverage": status.coverage.name if status.coverage else None,
                              "modification_level": level.name if level else None,
                              "docmdp_ok": status.docmdp_ok}), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "sign":
        certify = sys.argv[sys.argv.index("--certify") + 1] if "--certify" in sys.argv else "none"
        sign(sys.argv[2], sys.argv[3], sys.argv[4], certify)
    else:
        check(sys.argv[2], sys.argv[3])
