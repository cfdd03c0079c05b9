import torch

données = {"étiquette": "🙂🙂"}; état = torch.load(données["étiquette"]).cuda()
