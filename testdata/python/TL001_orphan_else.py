import torch


def features(backbone, wav, frozen):
    if frozen:
        backbone.eval()
    with torch.no_grad():
        feat = backbone(wav)
    else:  # want: TL001 "SyntaxError: invalid syntax \(else is a keyword\)"
        feat = wav
    return feat


# A name that only looks like a keyword is a name.
elsewhere: int = 0
passes = 1
