import torch

from registry import build_head


def main():
    head = build_head({"type": "KeypointHead"})
    for _ in range(10):
        print(head.predict_points(torch.randn(2, 8)))


if __name__ == "__main__":
    main()
