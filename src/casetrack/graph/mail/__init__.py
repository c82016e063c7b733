"""E-mail: who a message passes between, the threads messages form, dates written relative to the day sent."""
