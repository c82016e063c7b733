"""E-mail: .eml (MIME) and Outlook .msg read into messages, their attached files, and the earlier
messages a body quotes."""
