from ._lattice import LatticeDecoder, CTCLatticeDecoder

__all__ = ["LatticeDecoder", "CTCLatticeDecoder"]
