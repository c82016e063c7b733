"""Cases and their documents: create, resolve, lifecycle, read, the session's active case, export and
import, start-up repair."""
