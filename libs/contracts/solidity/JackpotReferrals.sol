// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice Referral schemes and referrer balances of the Jackpot: purchase fees, claim bonuses, fee claims.
/// @dev A scheme is (referrers, 1e18-scaled split) and its id is keccak256(abi.encode(referrers, split)), as on Base.
abstract contract JackpotReferrals {
    event ReferralFeeCollected(address indexed referrer, uint256 amount);
    event ReferralSchemeAdded(bytes32 indexed referralSchemeId, address[] referrers, uint256[] referralSplit);
    event ReferralFeesClaimed(address indexed userAddress, uint256 amount);

    error ReferralSplitLengthMismatch();
    error TooManyReferrers();
    error InvalidReferrer();
    error ReferralSplitSumInvalid();
    error NoReferralFeesToClaim();

    uint256 internal constant PRECISE_UNIT = 1e18;

    struct ReferralScheme {
        address[] referrers;
        uint256[] referralSplit;
    }

    uint256 public immutable maxReferrers;
    mapping(address => uint256) public referralFees;
    mapping(bytes32 => ReferralScheme) internal referralSchemes;

    constructor(uint256 maxReferrers_) {
        maxReferrers = maxReferrers_;
    }

    function claimReferralFees() external {
        uint256 amount = referralFees[msg.sender];
        if (amount == 0) revert NoReferralFeesToClaim();
        delete referralFees[msg.sender];
        _payOut(msg.sender, amount);
        emit ReferralFeesClaimed(msg.sender, amount);
    }

    function getReferralScheme(bytes32 referralSchemeId) external view returns (ReferralScheme memory) {
        return referralSchemes[referralSchemeId];
    }

    /// @dev Credits each referrer its split of the order's fee, then records the scheme the first time it is used
    ///      (the event order the indexer relies on: ReferralFeeCollected..., then ReferralSchemeAdded).
    function _collectPurchaseReferralFees(
        uint256 ticketsValue,
        uint256 referralFeeRate,
        address[] calldata referrers,
        uint256[] calldata referralSplit
    ) internal returns (uint256 feeTotal, bytes32 schemeId) {
        if (referrers.length != referralSplit.length) revert ReferralSplitLengthMismatch();
        if (referrers.length > maxReferrers) revert TooManyReferrers();
        if (referrers.length == 0) return (0, bytes32(0));

        feeTotal = (ticketsValue * referralFeeRate) / PRECISE_UNIT;
        schemeId = keccak256(abi.encode(referrers, referralSplit));
        uint256 splitSum = 0;
        for (uint256 i = 0; i < referrers.length; i++) {
            if (referrers[i] == address(0) || referralSplit[i] == 0) revert InvalidReferrer();
            splitSum += referralSplit[i];
            _credit(referrers[i], (feeTotal * referralSplit[i]) / PRECISE_UNIT);
        }
        if (splitSum != PRECISE_UNIT) revert ReferralSplitSumInvalid();

        if (referralSchemes[schemeId].referrers.length == 0) {
            referralSchemes[schemeId] = ReferralScheme({referrers: referrers, referralSplit: referralSplit});
            emit ReferralSchemeAdded(schemeId, referrers, referralSplit);
        }
    }

    /// @dev The "claim bonus": the referral share withheld from a winning claim, split by the ticket's scheme.
    function _payClaimBonus(bytes32 schemeId, uint256 share) internal {
        ReferralScheme storage scheme = referralSchemes[schemeId];
        for (uint256 i = 0; i < scheme.referrers.length; i++) {
            _credit(scheme.referrers[i], (share * scheme.referralSplit[i]) / PRECISE_UNIT);
        }
    }

    function _credit(address referrer, uint256 amount) private {
        referralFees[referrer] += amount;
        emit ReferralFeeCollected(referrer, amount);
    }

    function _payOut(address to, uint256 amount) internal virtual;
}
