"""Start-up on the RP2040: wire the real pins, then run the board loop forever.

Wiring (docs/drone-board.md): HX711 DT -> GP14, SCK -> GP15; MPU-6050 SDA -> GP4,
SCL -> GP5 (I2C0, 400 kHz). Hold GP22 to ground at power-up to skip this loop and
keep the REPL (for flashing).
"""

import select
import sys
import time

import machine
import micropython
from board import Board
from hx711 import HX711
from imu import MPU6050
from outbox import Outbox

SAFE_MODE_PIN = 22


def _reader(poller, stream):
    def read_input():
        data = b""
        while len(data) < 64 and poller.poll(0):
            data += stream.read(1)
        return data
    return read_input


def build_board():
    cell = HX711(machine.Pin(15, machine.Pin.OUT), machine.Pin(14, machine.Pin.IN),
                 machine.disable_irq, machine.enable_irq)
    i2c = machine.I2C(0, sda=machine.Pin(4), scl=machine.Pin(5), freq=400000)
    imu = MPU6050(i2c, rate_hz=200)
    incoming = select.poll()
    incoming.register(sys.stdin, select.POLLIN)
    outgoing = select.poll()
    outgoing.register(sys.stdout, select.POLLOUT)
    outbox = Outbox(sys.stdout.buffer, lambda: bool(outgoing.poll(0)))
    return Board(cell, imu, outbox, _reader(incoming, sys.stdin.buffer),
                 time.ticks_us, time.ticks_diff, machine.unique_id())


def main():
    if machine.Pin(SAFE_MODE_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0:
        return  # safe mode: leave the REPL alone
    micropython.kbd_intr(-1)  # frames may contain 0x03; it must not stop the loop
    board = build_board()
    while True:
        board.step()


main()
