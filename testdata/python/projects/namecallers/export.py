import json

import torch


def export(translator, feats, path):
    out = []
    with torch.no_grad():
        for feat in feats:
            out.append(translator.encode(feat))
    with open(path, "wb") as f:
        # A str's encode: no object of the project.
        f.write(json.dumps({"out": out}).encode("utf_8"))
