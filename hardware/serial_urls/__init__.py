"""pyserial URL handlers of packref (``replay://``); registered by :mod:`hardware.replay`."""
