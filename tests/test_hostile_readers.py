"""Files a designer could be sent, second round (issue 25): images that are not what their
name says, spreadsheets built to crash or stall the reader, absurd CSV cells. Each ends
with exit code 2 and a message naming the file, never a crash, a hang or code run."""

from __future__ import annotations

import pytest
from PIL import EpsImagePlugin, Image

from test_hostile import image_deck, run, run_process

EPS = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n{} loop\nshowpage\n"


def test_an_eps_named_png_is_refused_without_running_it(tmp_path, monkeypatch):
    """Pillow would sniff the file as EPS and hand its PostScript ({} loop: for ever) to
    Ghostscript; cardkit opens deck images only as PNG or JPEG."""
    ran = []
    monkeypatch.setattr(EpsImagePlugin.EpsImageFile, "load",
                        lambda self, *a, **k: ran.append(self) or None)
    deck = image_deck(tmp_path, "art.png")
    (tmp_path / "art.png").write_bytes(EPS)
    code, output = run("validate", deck)
    assert code == 2
    assert f"image 'art.png': not a PNG or JPEG file (whatever its name says), nor SVG; " \
           "save it again as PNG, JPG or plain SVG" in output
    assert not ran


@pytest.mark.parametrize("kind", ["GIF", "TIFF", "BMP"])
def test_other_image_formats_under_a_png_name_are_refused(tmp_path, kind):
    deck = image_deck(tmp_path, "art.png")
    Image.new("RGB", (8, 8), "red").save(tmp_path / "art.png", format=kind)
    code, output = run("build", deck, "--out", tmp_path / "out")
    assert code == 2
    assert "not a PNG or JPEG file (whatever its name says)" in output
    assert not (tmp_path / "out").exists()


def test_an_eps_image_as_a_subprocess_ends_quickly(tmp_path):
    deck = image_deck(tmp_path, "art.jpg")
    (tmp_path / "art.jpg").write_bytes(EPS)
    code, err = run_process("validate", deck, timeout=30)
    assert code == 2
    assert "art.jpg': not a PNG or JPEG file" in err
