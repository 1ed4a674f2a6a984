"""The live loop: sources → stable observations → translators → engine → store → broadcast."""
