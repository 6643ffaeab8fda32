"""A tiny real Tk window the desktop tests drive: an entry, a button, a hotkey and the wheel.

Run as `python tk_app.py OUT_DIR TITLE`. Everything the window receives is appended to
OUT_DIR/events.txt, one line each, so a test asserts on what the app saw rather than on
what was sent. Once the window is laid out, OUT_DIR/geometry.json holds the screen
centre of each widget (written beside and renamed, so a reader never sees half of it).
The window sits over the screen's centre, where a fresh X server leaves the pointer: on
a bare Xvfb (no window manager, keys go to the window under the pointer) it is the window
that gets keys from the start, as the focused window would on a desktop.
"""

from __future__ import annotations

import json
import os
import sys
import tkinter as tk
from pathlib import Path

WIDTH, HEIGHT = 360, 160  # placed for the tests' 1024x768 screen

def main(out: Path, title: str) -> None:
    root = tk.Tk()
    root.title(title)
    root.geometry(f"{WIDTH}x{HEIGHT}+{(1024 - WIDTH) // 2}+{(768 - HEIGHT) // 2}")
    entry = tk.Entry(root, width=30)
    entry.pack(padx=20, pady=20)
    button = tk.Button(root, text="Save")
    button.pack(pady=10)

    def record(line: str) -> None:
        with (out / "events.txt").open("a", encoding="utf-8") as events:
            events.write(line + "\n")

    button.configure(command=lambda: record(f"clicked {entry.get()}"))
    root.bind_all("<Control-s>", lambda event: record(f"hotkey ctrl+s {entry.get()}"))
    root.bind_all("<Button-4>", lambda event: record("wheel up"))
    root.bind_all("<Button-5>", lambda event: record("wheel down"))

    def centre(widget: tk.Widget) -> dict[str, int]:
        return {"x": widget.winfo_rootx() + widget.winfo_width() // 2,
                "y": widget.winfo_rooty() + widget.winfo_height() // 2}

    def announce() -> None:
        root.update_idletasks()
        partial = out / "geometry.json.part"
        partial.write_text(json.dumps({"entry": centre(entry), "button": centre(button), "pid": os.getpid()}))
        partial.rename(out / "geometry.json")

    root.after(300, announce)
    root.mainloop()


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
