// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ITicketNFT} from "./interfaces/ITicketNFT.sol";

interface IERC721Receiver {
    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data)
        external
        returns (bytes4);
}

/// @notice Minimal ERC-721 whose tokens are lottery tickets. Only the Jackpot mints and burns; holders transfer
///         freely, and whoever holds a ticket at claim time is paid (Transfer events carry ownership changes).
contract TicketNFT is ITicketNFT {
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);

    error OnlyJackpot();
    error NonexistentTicket(uint256 ticketId);
    error TicketExists(uint256 ticketId);
    error NotAuthorized();
    error WrongOwner();
    error InvalidRecipient();

    /// @dev owner, drawing and numbers share one slot so a mint costs one new slot (plus the scheme if any).
    struct Record {
        address owner;
        uint48 drawingId;
        uint48 numbers;
    }

    string public constant name = "Lottery Ticket (local)";
    string public constant symbol = "TICKET";

    address public immutable jackpot;

    mapping(uint256 => Record) private records;
    mapping(uint256 => bytes32) private referralSchemes;
    mapping(address => uint256) public balanceOf;
    mapping(uint256 => address) public getApproved;
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    constructor(address jackpot_) {
        jackpot = jackpot_;
    }

    modifier onlyJackpot() {
        if (msg.sender != jackpot) revert OnlyJackpot();
        _;
    }

    function mintTicket(address to, uint256 ticketId, uint256 drawingId, uint48 numbers, bytes32 referralScheme)
        external
        onlyJackpot
    {
        if (to == address(0)) revert InvalidRecipient();
        if (records[ticketId].owner != address(0)) revert TicketExists(ticketId);
        records[ticketId] = Record({owner: to, drawingId: uint48(drawingId), numbers: numbers});
        if (referralScheme != bytes32(0)) referralSchemes[ticketId] = referralScheme;
        unchecked {
            balanceOf[to]++;
        }
        emit Transfer(address(0), to, ticketId);
    }

    function burnTicket(uint256 ticketId) external onlyJackpot {
        address holder = ownerOf(ticketId);
        delete records[ticketId];
        delete referralSchemes[ticketId];
        delete getApproved[ticketId];
        unchecked {
            balanceOf[holder]--;
        }
        emit Transfer(holder, address(0), ticketId);
    }

    function getTicketInfo(uint256 ticketId) external view returns (TicketInfo memory) {
        Record memory record = records[ticketId];
        if (record.owner == address(0)) revert NonexistentTicket(ticketId);
        return TicketInfo({
            owner: record.owner,
            drawingId: record.drawingId,
            numbers: record.numbers,
            referralScheme: referralSchemes[ticketId]
        });
    }

    function ownerOf(uint256 ticketId) public view returns (address holder) {
        holder = records[ticketId].owner;
        if (holder == address(0)) revert NonexistentTicket(ticketId);
    }

    function approve(address approved, uint256 ticketId) external {
        address holder = ownerOf(ticketId);
        if (msg.sender != holder && !isApprovedForAll[holder][msg.sender]) revert NotAuthorized();
        getApproved[ticketId] = approved;
        emit Approval(holder, approved, ticketId);
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function transferFrom(address from, address to, uint256 ticketId) public {
        address holder = ownerOf(ticketId);
        if (holder != from) revert WrongOwner();
        if (to == address(0)) revert InvalidRecipient();
        if (msg.sender != holder && !isApprovedForAll[holder][msg.sender] && getApproved[ticketId] != msg.sender) {
            revert NotAuthorized();
        }
        delete getApproved[ticketId];
        records[ticketId].owner = to;
        unchecked {
            balanceOf[from]--;
            balanceOf[to]++;
        }
        emit Transfer(from, to, ticketId);
    }

    function safeTransferFrom(address from, address to, uint256 ticketId) external {
        safeTransferFrom(from, to, ticketId, "");
    }

    function safeTransferFrom(address from, address to, uint256 ticketId, bytes memory data) public {
        transferFrom(from, to, ticketId);
        if (to.code.length > 0) {
            bytes4 answer = IERC721Receiver(to).onERC721Received(msg.sender, from, ticketId, data);
            if (answer != IERC721Receiver.onERC721Received.selector) revert InvalidRecipient();
        }
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x80ac58cd || interfaceId == 0x01ffc9a7; // ERC-721, ERC-165
    }
}
