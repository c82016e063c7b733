"""A draft's record citations: read after each quotation, resolved to the document, pages and places
of the case they name."""
