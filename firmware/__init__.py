"""MicroPython firmware for the drone's sensor board (RP2040 + HX711 + MPU-6050).

The files here are copied onto the board as they are (``docs/drone-board.md``);
on the host, only :mod:`firmware.frames` is imported, by :mod:`hardware`.
"""
