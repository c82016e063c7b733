"""Nothing a document links makes CaseTrack open a connection (issue 20 §3: a linked picture in an .odt or a
.doc made LibreOffice send OPTIONS, HEAD and GET to the address in the file, a tracking beacon).

A local HTTP server on 127.0.0.1 stands in for the sender's server. Every format that can link something
by URL is built here with links to it (pictures, fields, templates, entities, HTML images, PDF link
actions), ingested through the real service, and the server must hear nothing."""

from __future__ import annotations

import http.server
import io
import shutil
import threading
import zipfile
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import docx
import olefile
import pytest
from compressed_rtf import compress
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, TextStringObject

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from casetrack.store import documents as docstore
from tests.badfiles import text_pdf_bytes
from tests.parse.test_docx import libreoffice_convert
from tests.parse.test_docx_entities import docx_with_entities
from tests.parse.test_msg import DRAFT

TEXT = "The parties agree to the terms below."
ATTACHED_TEMPLATE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate"
HAS_LIBREOFFICE = bool(shutil.which("soffice") or shutil.which("libreoffice"))


class _Listener(http.server.ThreadingHTTPServer):
    def __init__(self) -> None:
        self.requests: list[str] = []
        super().__init__(("127.0.0.1", 0), _Recorder)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Recorder(http.server.BaseHTTPRequestHandler):
    server: _Listener

    def _any(self) -> None:
        self.server.requests.append(f"{self.command} {self.path}")
        self.send_response(404)
        self.end_headers()

    do_GET = do_HEAD = do_OPTIONS = do_POST = do_PROPFIND = _any

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def listener() -> Iterator[_Listener]:
    server = _Listener()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


# --- documents that link to the listener -------------------------------------------------------------


def linked_odt(path: Path, url: str) -> Path:
    """An OpenDocument text showing a picture linked by URL (not carried in the file), as an .odt can."""
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
        'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.2">'
        f"<office:body><office:text><text:p>{TEXT}</text:p><text:p>"
        '<draw:frame draw:name="Logo" text:anchor-type="as-char" svg:width="2in" svg:height="1in">'
        f'<draw:image xlink:href="{url}/odt-picture.png" xlink:type="simple" xlink:show="embed" '
        'xlink:actuate="onLoad"/></draw:frame></text:p></office:text></office:body></office:document-content>'
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
        'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>'
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.text")  # stored first, uncompressed
        archive.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
        archive.writestr("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED)
    return path


def linked_docx(path: Path, url: str) -> Path:
    """A .docx with a picture linked by an external relationship (TargetMode="External"), an INCLUDEPICTURE
    field, a hyperlink and an attached template on the server."""
    document = docx.Document()
    document.add_paragraph(TEXT)
    picture = document.part.relate_to(f"{url}/docx-picture.png", RT.IMAGE, is_external=True)
    link = document.part.relate_to(f"{url}/docx-hyperlink", RT.HYPERLINK, is_external=True)
    ns = ('xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
          'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"')
    body = document.element.body
    drawing = docx.oxml.parse_xml(
        f'<w:p {ns} xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
        'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
        'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:r><w:drawing><wp:inline>'
        '<wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="Logo"/><a:graphic><a:graphicData '
        'uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" '
        f'name="Logo"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:link="{picture}"/></pic:blipFill>'
        '<pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>'
    )
    field = docx.oxml.parse_xml(
        f'<w:p {ns}><w:fldSimple w:instr=\'INCLUDEPICTURE "{url}/docx-field.png" \\d\'><w:r><w:t>picture</w:t>'
        f'</w:r></w:fldSimple><w:hyperlink r:id="{link}"><w:r><w:t>the website</w:t></w:r></w:hyperlink></w:p>'
    )
    body.insert(1, drawing)
    body.insert(2, field)
    settings = document.part._settings_part
    template = settings.relate_to(f"{url}/docx-template.dotm", ATTACHED_TEMPLATE, is_external=True)
    settings.element.append(docx.oxml.parse_xml(f'<w:attachedTemplate {ns} r:id="{template}"/>'))
    document.save(str(path))
    return path


def linked_rtf(url: str) -> str:
    return ("{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Times New Roman;}}\n\\pard " + TEXT + "\\par\n"
            f'{{\\field{{\\*\\fldinst INCLUDEPICTURE "{url}/rtf-picture.png" \\\\d}}{{\\fldrslt }}}}\\par\n'
            f'{{\\field{{\\*\\fldinst INCLUDETEXT "{url}/rtf-text.txt"}}{{\\fldrslt old}}}}\\par\n}}\n')


def linked_html(url: str) -> str:
    return (f'<html><head><link rel="stylesheet" href="{url}/html-style.css"></head>'
            f'<body background="{url}/html-background.png"><p>{TEXT}</p>'
            f'<img src="{url}/html-picture.png" width="1" height="1"><iframe src="{url}/html-frame"></iframe>'
            "</body></html>")


def linked_eml(path: Path, url: str, odt: Path, docx_file: Path) -> Path:
    """An HTML e-mail showing a remote picture, carrying an HTML page, a linked .odt and a linked .docx."""
    message = EmailMessage()
    message["From"] = "sender@example.com"
    message["To"] = "client@example.com"
    message["Subject"] = "Terms"
    message.set_content(linked_html(url), subtype="html")
    message.add_attachment(linked_html(url).encode(), maintype="text", subtype="html", filename="page.html")
    message.add_attachment(odt.read_bytes(), maintype="application", subtype="vnd.oasis.opendocument.text",
                           filename="attached.odt")
    message.add_attachment(docx_file.read_bytes(), maintype="application",
                           subtype="vnd.openxmlformats-officedocument.wordprocessingml.document",
                           filename="attached.docx")
    path.write_bytes(message.as_bytes())
    return path


def linked_msg(path: Path, url: str) -> Path:
    """An Outlook message whose body is HTML with a remote picture, held as Outlook holds HTML mail: RTF
    wrapping the HTML (\\fromhtml1), compressed. Made from a real .msg by replacing its body streams in place
    (olefile rewrites a stream only at its own size, so the new RTF is padded to it)."""
    shutil.copy(DRAFT, path)
    with olefile.OleFileIO(str(path), write_mode=True) as ole:
        plain = "__substg1.0_1000001F"
        ole.write_stream(plain, " ".encode("utf-16-le") * (ole.get_size(plain) // 2))  # no plain-text body
        rtf_stream = "__substg1.0_10090102"
        html = linked_html(url).replace("{", "").replace("}", "")
        rtf = "{\\rtf1\\ansi\\fbidis\\deff0\\fromhtml1 {\\*\\htmltag " + html + "}" + TEXT + "\\par"
        room = ole.get_size(rtf_stream) - len(compress(b"", compressed=False))
        ole.write_stream(rtf_stream, compress((rtf + " " * (room - len(rtf) - 1) + "}").encode(), compressed=False))
    return path


def linked_pdf(path: Path, url: str) -> Path:
    """A PDF opening with a URI action, its page carrying a URI link, a remote go-to and a launch action."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(text_pdf_bytes([[(72, 700, TEXT)]]))))

    def link(action: DictionaryObject) -> DictionaryObject:
        return DictionaryObject({
            NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Link"),
            NameObject("/Rect"): ArrayObject([FloatObject(72), FloatObject(690), FloatObject(300), FloatObject(715)]),
            NameObject("/A"): action,
        })  # fmt: skip

    def uri(name: str) -> DictionaryObject:
        return DictionaryObject({NameObject("/S"): NameObject("/URI"),
                                 NameObject("/URI"): TextStringObject(url + name)})

    remote = DictionaryObject({
        NameObject("/S"): NameObject("/GoToR"), NameObject("/D"): ArrayObject([FloatObject(0), NameObject("/Fit")]),
        NameObject("/F"): DictionaryObject({NameObject("/FS"): NameObject("/URL"),
                                            NameObject("/F"): TextStringObject(f"{url}/pdf-remote.pdf")}),
    })  # fmt: skip
    launch = DictionaryObject({NameObject("/S"): NameObject("/Launch"),
                               NameObject("/F"): TextStringObject(f"{url}/pdf-launch")})
    for action in (uri("/pdf-link"), remote, launch):
        writer.add_annotation(0, link(action))
    writer.root_object[NameObject("/OpenAction")] = uri("/pdf-open")
    with path.open("wb") as handle:
        writer.write(handle)
    return path


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
@pytest.mark.skipif(not HAS_LIBREOFFICE, reason="LibreOffice is not installed")
def test_ingesting_documents_that_link_a_server_sends_it_nothing(
    listener: _Listener, tmp_path: Path, data_dir: Path
) -> None:
    url = listener.url
    folder = tmp_path / "Matter"
    folder.mkdir()
    odt = linked_odt(folder / "linked.odt", url)
    docx_file = linked_docx(folder / "linked.docx", url)
    (folder / "linked.rtf").write_text(linked_rtf(url))
    files = [
        odt,
        docx_file,
        folder / "linked.rtf",
        libreoffice_convert(odt, "doc", tmp_path / "build"),  # LibreOffice keeps the picture a link in .doc
        linked_eml(folder / "linked.eml", url, odt, docx_file),
        linked_msg(folder / "linked.msg", url),
        linked_pdf(folder / "linked.pdf", url),
        docx_with_entities(folder / "entity.docx", f"{url}/docx-entity"),
    ]
    # .doc files go to LibreOffice whatever they hold: the same RTF and DOCX named .doc, in a case of their own
    # (each is the same file as one above).
    renamed = tmp_path / "Renamed"
    renamed.mkdir()
    shutil.copy(folder / "linked.rtf", renamed / "rtf-inside.doc")
    shutil.copy(docx_file, renamed / "docx-inside.doc")
    listener.requests.clear()  # building the .doc above ran LibreOffice with its defaults

    app = CaseTrack.open(load_settings(data_dir))
    texts = _ingested_texts(app, "Links", files) | _ingested_texts(app, "Renamed", sorted(renamed.iterdir()))
    app.jobs.shutdown()
    for name in ("linked.odt", "linked.docx", "linked.rtf", "linked.doc", "linked.pdf", "linked.msg",
                 "rtf-inside.doc", "docx-inside.doc"):
        assert TEXT in texts[name], name
    assert texts["linked.eml"].count(TEXT) >= 3  # the body, the .odt and the .docx attached
    assert listener.requests == []


def _ingested_texts(app: CaseTrack, case_name: str, files: list[Path]) -> dict[str, str]:
    """Ingest `files` into a new case through the real service; each stored document's text by name."""
    case = app.create_case(case_name)
    for path in files:
        app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(path)))
    with app.cases.store(case).reader() as db:
        return {doc.name: "".join(page.text for page in docstore.pages(db, doc.id))
                for doc in docstore.list_documents(db)}
