// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice Validation, packing and matching of 5 + bonusball tickets, and drawing numbers from a seed.
/// @dev Two encodings:
///      - "numbers" (uint48): byte i = i-th normal as bought (i = 0..4), byte 5 = bonusball. Small enough to share
///        the NFT's owner slot, which keeps a purchase to two new storage slots per ticket.
///      - "packed" (uint256, the real Jackpot's winningTicket format): bit n set for each normal n, plus bit
///        (ballMax + bonusball) for the bonusball. Normals masks are order independent, so they key duplicates.
library TicketNumbers {
    uint256 internal constant NORMAL_COUNT = 5;

    error InvalidNormalsCount();
    error InvalidNormal(uint8 normal);
    error InvalidBonusball(uint8 bonusball);

    /// @return normalsMask bit n set for each normal n; numbers the compact encoding stored with the NFT.
    function validate(uint8[] calldata normals, uint8 bonusball, uint8 ballMax, uint8 bonusballMax)
        internal
        pure
        returns (uint256 normalsMask, uint48 numbers)
    {
        if (normals.length != NORMAL_COUNT) revert InvalidNormalsCount();
        if (bonusball == 0 || bonusball > bonusballMax) revert InvalidBonusball(bonusball);
        for (uint256 i = 0; i < NORMAL_COUNT; i++) {
            uint8 normal = normals[i];
            uint256 bit = uint256(1) << normal;
            if (normal == 0 || normal > ballMax || normalsMask & bit != 0) revert InvalidNormal(normal);
            normalsMask |= bit;
            numbers |= uint48(normal) << uint48(8 * i);
        }
        numbers |= uint48(bonusball) << 40;
    }

    function pack(uint256 normalsMask, uint8 bonusball, uint8 ballMax) internal pure returns (uint256) {
        return normalsMask | (uint256(1) << (uint256(ballMax) + bonusball));
    }

    function bonusballOf(uint48 numbers) internal pure returns (uint8) {
        return uint8(numbers >> 40);
    }

    /// @return tierId matchedNormals * 2 + (bonusball matched ? 1 : 0), against a packed winning ticket.
    function tierOf(uint48 numbers, uint256 winningPacked, uint8 ballMax) internal pure returns (uint256 tierId) {
        uint256 matched = 0;
        for (uint256 i = 0; i < NORMAL_COUNT; i++) {
            uint8 normal = uint8(numbers >> (8 * i));
            if (winningPacked & (uint256(1) << normal) != 0) matched++;
        }
        bool bonusMatch = winningPacked & (uint256(1) << (uint256(ballMax) + bonusballOf(numbers))) != 0;
        return matched * 2 + (bonusMatch ? 1 : 0);
    }

    /// @notice 5 distinct normals in 1..ballMax and a bonusball in 1..bonusballMax, derived from `seed` only
    ///         (no block data: the local simulator must be reproducible from its seed).
    function draw(uint256 seed, uint8 ballMax, uint8 bonusballMax)
        internal
        pure
        returns (uint8[] memory normals, uint8 bonusball, uint256 normalsMask)
    {
        normals = new uint8[](NORMAL_COUNT);
        uint256 found = 0;
        for (uint256 attempt = 0; found < NORMAL_COUNT; attempt++) {
            uint8 normal = uint8(uint256(keccak256(abi.encode(seed, attempt))) % ballMax) + 1;
            uint256 bit = uint256(1) << normal;
            if (normalsMask & bit != 0) continue;
            normalsMask |= bit;
            normals[found++] = normal;
        }
        bonusball = uint8(uint256(keccak256(abi.encode(seed, "bonusball"))) % bonusballMax) + 1;
    }
}
