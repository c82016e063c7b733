"""Word documents: .docx read from its XML (body, numbering, notes, headers, pictures, page breaks),
.doc and .odt converted by LibreOffice first."""
