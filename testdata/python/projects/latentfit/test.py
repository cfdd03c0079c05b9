import torch

from reconstruction import finetune, reconstruct, tune_head

netG = torch.load("netG.pth")
criterion = torch.nn.MSELoss()
eval_mode = True
out = {}
for key, x in torch.load("segments.pt").items():
    if eval_mode:
        netG.eval()  # ok: the loop fits latent codes; netG is not trained
    out[key] = reconstruct(x, 100, netG, criterion)

for key, x in torch.load("segments.pt").items():
    if eval_mode:
        netG.eval()  # want: TL503
    finetune(x, 10, netG, criterion)

for key, x in torch.load("segments.pt").items():
    if eval_mode:
        netG.eval()  # want: TL503
    tune_head(x, 10, netG, criterion)
